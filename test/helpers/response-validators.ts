// The response check's validators (src/fake/openapi-document.ts, ResponseValidators) kept across the
// test processes of a run: each bound schema the check compiles is also written as ajv's
// standalone code into a cache folder, by a digest of ajv's version, its options and the schema's text,
// and a later process loads it instead of compiling it again. Compiling the answers' schemas
// was most of what the first checked answers of each test process cost (about a hundred
// processes compiled the same few dozen schemas). The standalone code is ajv's own for the
// same options, so the check holds answers to exactly the same schemas.
import { createHash } from 'node:crypto'
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { _, Ajv, type ValidateFunction } from 'ajv'
import { addBoardFormats } from '../../schemas/formats.js'
import { loadStandalone } from '../../src/core/validation.js'
import { ResponseValidators } from '../../src/fake/openapi-document.js'

const require = createRequire(import.meta.url)
const standaloneCode = require('ajv/dist/standalone/index.js').default as (ajv: Ajv, validate: ValidateFunction) => string
const AJV_VERSION = (require('ajv/package.json') as { version: string }).version
/** Beside the transformed sources' cache (test/helpers/ts-hooks.mjs): node_modules/.cache, made again by a new install. */
const FOLDER = join(import.meta.dirname ?? new URL('.', import.meta.url).pathname, '..', '..', 'node_modules', '.cache', 'jobboard-kit-tests', 'response-validators')

export class CachedResponseValidators extends ResponseValidators {
  readonly #byText = new Map<string, ValidateFunction>()
  #standalone: Ajv | undefined

  override of(schema: object): ValidateFunction {
    const text = JSON.stringify(schema)
    let validate = this.#byText.get(text)
    if (validate === undefined) {
      const { allErrors, strict } = this.ajv.opts
      const key = `${AJV_VERSION}\0${JSON.stringify({ allErrors, strict })}\0`
      const file = join(FOLDER, `${createHash('sha1').update(key).update(text).digest('hex')}.cjs`)
      try {
        validate = loadStandalone(readFileSync(file, 'utf8'), require)
      } catch {
        // ResponseValidators' options, with the standalone code kept (its formats given at load, as the build's)
        this.#standalone ??= addBoardFormats(new Ajv({ allErrors, strict, code: { source: true, formats: _`formats` } }))
        validate = this.#standalone.compile(schema)
        const source = ['module.exports = function (formats) {', "'use strict';", 'const module = { exports: {} };', standaloneCode(this.#standalone, validate), 'return module.exports;', '};', ''].join('\n')
        try {
          // whole or not at all, for a process reading it at the same time
          mkdirSync(FOLDER, { recursive: true })
          writeFileSync(`${file}.${process.pid}.tmp`, source)
          renameSync(`${file}.${process.pid}.tmp`, file)
        } catch {
          // a read-only tree compiles in each process
        }
      }
      this.#byText.set(text, validate)
    }
    return validate
  }
}
