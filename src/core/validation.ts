// Validation with ajv: the instances (one policy per kind of input), the binding of a
// board's current constrained values into schemas, and the plain-words message that a
// 412 answer or a refused scenario gives.
//
// Policy, decided on purpose:
// - JSON bodies (job/add, job ids, control API) are validated as sent: no type
//   coercion ("1" is not 1) and nothing removed, so a client that passes here sends
//   what the spec says. Unknown job/add fields are refused by additionalProperties
//   (or let through when behaviour.unknownJobFields is "ignore").
// - Query strings and path parameters arrive as text, so they are coerced to the
//   schema's types (page=2 → 2); unknown query parameters are ignored.
// - The store validates every record it writes against the API's own schemas.
//
// Compiling a schema costs far more than running it (about 300 ms of a fake's start-up),
// so `npm run build` writes ajv's standalone code for the schemas a fake compiles as it
// starts (scripts/precompile.mjs): compileSchema takes that code when it was made from the
// same schema text and policy, and compiles otherwise (from the sources, or other lists).
import { Ajv, _, type ErrorObject, type Format, type ValidateFunction } from 'ajv'
import { createHash } from 'node:crypto'
import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join, sep } from 'node:path'
import { CONSTRAINED_PREFIX } from '../../schemas/common.js'
import { addBoardFormats, FORMATS, formatDefinitions } from '../../schemas/formats.js'
import { PACKAGE_ROOT } from './paths.js'
import { inExecutable } from './shipped.js'

export type Lists = Readonly<Record<string, readonly string[]>>

export interface AjvPolicy {
  coerce?: boolean
  useDefaults?: boolean
  /**
   * The schemas are the project's own, checked against draft-07 by the test suite
   * (test/schemas/meta-schema.test.ts): skip compiling the meta-schema in this instance
   * (about 30 ms of start-up each).
   */
  ownSchemas?: boolean
  /**
   * The validators run a few times (options, a scenario), not per record: skip ajv's
   * code optimisation, which costs more at compile time than it saves on so few calls.
   */
  fewCalls?: boolean
}

/** How query strings and path parameters are validated: text coerced to the schema's types. */
export const TEXT_POLICY: AjvPolicy = { coerce: true, ownSchemas: true }

export function createAjv({ coerce = false, useDefaults = false, ownSchemas = false, fewCalls = false, standalone = false }: AjvPolicy & { standalone?: boolean } = {}): Ajv {
  return addBoardFormats(
    new Ajv({
      allErrors: true,
      coerceTypes: coerce,
      useDefaults,
      removeAdditional: false,
      strict: true,
      validateSchema: !ownSchemas,
      // standalone code (the build's) finds the formats in the `formats` its module is given
      code: standalone ? { source: true, optimize: true, formats: _`formats` } : { optimize: !fewCalls },
      // `if`/`else` is how job/add says "coordinates unless a predefined location": the
      // else branch requires properties it does not itself define
      strictRequired: false,
    }),
  )
}

/**
 * A copy of `schema` whose constrained enums (marked `$comment: "constrained:<list>"`)
 * hold the given lists instead of the spec's defaults. Lists not given keep the default.
 */
export function bindFieldValues<T>(schema: T, lists: Lists): T {
  const visit = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(visit)
    if (node === null || typeof node !== 'object') return node
    const out: Record<string, unknown> = {}
    for (const [key, value] of Object.entries(node)) out[key] = visit(value)
    const comment = out.$comment
    if (typeof comment === 'string' && comment.startsWith(CONSTRAINED_PREFIX)) {
      const list = lists[comment.slice(CONSTRAINED_PREFIX.length)]
      // an empty list (a board without predefined locations) allows nothing; JSON Schema has no empty enum
      if (list && list.length > 0) out.enum = [...list]
      else if (list) {
        delete out.enum
        out.not = {}
      }
    }
    return out
  }
  return visit(schema) as T
}

/**
 * Where the build writes precompiled validators: one CommonJS file per schema and policy,
 * named by precompiledName. Found from the package root, so the bundled command line
 * (dist/cli/) finds them too; from the sources they are taken only where the schema is unchanged.
 */
export const PRECOMPILED_DIR = `${join(PACKAGE_ROOT, 'dist', 'precompiled')}${sep}`

/**
 * The file name of a schema's precompiled validator: a digest of what decides its code,
 * the schema's text and the policy's behaviour (coercion, defaults), so that a validator
 * is only ever taken for the very schema it was made from.
 */
export function precompiledName(policy: AjvPolicy, schema: object): string {
  const behaviour = JSON.stringify({ coerce: policy.coerce ?? false, useDefaults: policy.useDefaults ?? false })
  return `${createHash('sha256').update(behaviour).update('\n').update(JSON.stringify(schema)).digest('hex').slice(0, 32)}.cjs`
}

/**
 * The standalone code of a schema's validator under a policy, as a CommonJS module whose
 * export is a factory given the formats (they are functions, not code): what the build
 * writes into PRECOMPILED_DIR.
 */
export function standaloneSource(policy: AjvPolicy, schema: object): string {
  const ajv = createAjv({ ...policy, standalone: true })
  // loaded here: only the build writes standalone code
  const standaloneCode = createRequire(import.meta.url)('ajv/dist/standalone/index.js').default as (ajv: Ajv, validate: ValidateFunction) => string
  return [
    '// ajv standalone code, written at build time (scripts/precompile.mjs) from the schemas; do not edit.',
    'module.exports = function (formats) {',
    "'use strict';",
    'const module = { exports: {} };',
    standaloneCode(ajv, ajv.compile(schema)),
    'return module.exports;',
    '};',
    '',
  ].join('\n')
}

/** A validator from standalone source, as the build's files give it. */
export function loadStandalone(source: string, require: NodeJS.Require): ValidateFunction {
  const module = { exports: undefined as unknown }
  new Function('module', 'require', source)(module, require)
  return (module.exports as (formats: Record<string, Format>) => ValidateFunction)(formatDefinitions())
}

/** A precompiled validator's module: a factory given the formats. */
type PrecompiledFactory = (formats: Record<string, Format>) => ValidateFunction

/**
 * The precompiled modules the bundled package carries, by file name (scripts/bundle.mjs
 * gives them at load): validators, and the response serializers (src/fake/http/serializer.ts),
 * found without a module to load, and compiled (or read from the code cache) with the rest
 * of the bundle.
 */
let carried: Readonly<Record<string, () => unknown>> | undefined
export function carryPrecompiled(table: Readonly<Record<string, () => unknown>>): void {
  carried = table
}

let precompiledRequire: NodeJS.Require | null | undefined
let formats: Record<string, Format> | undefined

/** The export of the build's precompiled module `name` (a file of PRECOMPILED_DIR), when this build has it; undefined from sources without one. */
export function precompiledModule(name: string): unknown {
  // the single executable carries its modules (carryPrecompiled); no file beside it is run
  precompiledRequire ??= !inExecutable() && existsSync(PRECOMPILED_DIR) ? createRequire(PRECOMPILED_DIR) : null
  if (carried === undefined && precompiledRequire === null) return undefined
  const file = `${PRECOMPILED_DIR}${name}`
  return carried?.[name]?.() ?? (precompiledRequire !== null && existsSync(file) ? precompiledRequire(file) : undefined)
}

/** A precompiled validator, when this is a build that has one for this schema and policy; undefined from the sources. */
function loadPrecompiled(policy: AjvPolicy, schema: object): ValidateFunction | undefined {
  const factory = precompiledModule(precompiledName(policy, schema)) as PrecompiledFactory | undefined
  if (factory === undefined) return undefined
  formats ??= formatDefinitions()
  return factory(formats)
}

/** A validator of `schema` under `policy`: the build's precompiled one when there is one, else compiled now (with `ajv`, or a new instance). */
export function compileSchema<T = unknown>(policy: AjvPolicy, schema: object, ajv?: () => Ajv): ValidateFunction<T> {
  return (loadPrecompiled(policy, schema) ?? (ajv?.() ?? createAjv(policy)).compile(schema)) as ValidateFunction<T>
}

/** Compiles each schema once per policy and per set of lists; owned by one store. */
export class Validators {
  #ajv: Ajv | undefined
  readonly #policy: AjvPolicy
  readonly #lists: Lists
  readonly #cache = new WeakMap<object, ValidateFunction>()

  constructor(lists: Lists, policy: AjvPolicy = {}) {
    this.#policy = { ownSchemas: true, ...policy }
    this.#lists = lists
  }

  get<T = unknown>(schema: object): ValidateFunction<T> {
    let validate = this.#cache.get(schema)
    if (!validate) {
      // one ajv instance for the schemas compiled here, made when the first one is not precompiled
      validate = compileSchema(this.#policy, bindFieldValues(schema, this.#lists), () => (this.#ajv ??= createAjv(this.#policy)))
      this.#cache.set(schema, validate)
    }
    return validate as ValidateFunction<T>
  }
}

/** Where a value came from, for the wording of a message. */
export type Part = 'body' | 'querystring' | 'params' | 'record' | 'scenario' | 'options'

const PART_NOUN: Record<Part, string> = {
  body: 'field',
  querystring: 'query parameter',
  params: 'path parameter',
  record: 'field',
  scenario: 'scenario field',
  options: 'option',
}

/** `/applications/0/href` → `applications[0].href` */
function pathOf(instancePath: string, child?: string): string {
  const parts = instancePath.split('/').slice(1)
  if (child !== undefined) parts.push(child)
  let out = ''
  for (const raw of parts) {
    const part = raw.replace(/~1/g, '/').replace(/~0/g, '~')
    out += /^[0-9]+$/.test(part) ? `[${part}]` : out === '' ? part : `.${part}`
  }
  return out
}

/** The field an error is about. */
export function fieldOf(error: ErrorObject): string {
  const params = error.params as Record<string, unknown>
  if (error.keyword === 'required') return pathOf(error.instancePath, String(params.missingProperty))
  if (error.keyword === 'additionalProperties') return pathOf(error.instancePath, String(params.additionalProperty))
  return pathOf(error.instancePath)
}

// an in-process caller may hand over a BigInt, which JSON.stringify throws on
const quote = (value: unknown) => (typeof value === 'string' ? `"${value}"` : typeof value === 'bigint' ? `${value}n` : JSON.stringify(value))
/** The last name of a path in plain words: `records.jobs[0].salary_unit` → `salary unit`. */
const plain = (field: string) =>
  (field.replace(/\[[0-9]+\]/g, '').split('.').pop() ?? field).replace(/_/g, ' ').replace(/([a-z])([A-Z])/g, (_, a: string, b: string) => `${a} ${b.toLowerCase()}`)

/** One sentence about one error, naming the field both as written and in plain words. */
function sentence(error: ErrorObject, part: Part, value: unknown): string {
  const field = fieldOf(error)
  const noun = PART_NOUN[part]
  const words = plain(field)
  const named =
    field === '' ? `The ${part === 'body' ? 'body' : noun}` : words === field ? `The ${noun} ${field}` : `The ${words} (${noun} ${field})`
  const params = error.params as Record<string, unknown>
  // an error about a key rather than a value (propertyNames): say which key
  const key = (error as ErrorObject & { propertyName?: string }).propertyName
  if (key !== undefined) return `${named} is invalid: it may not hold a field named ${quote(key)}.`
  switch (error.keyword) {
    case 'required':
      return `${named} is missing; it is required.`
    case 'additionalProperties':
      return `${named} is not a known ${noun}.`
    case 'enum':
      return `${named} is invalid: ${quote(value)} is not one of ${(params.allowedValues as unknown[]).map((v) => String(v)).join(', ')}.`
    case 'const':
      return `${named} is invalid: it must be ${quote(params.allowedValue)}.`
    case 'type':
      return `${named} is invalid: it must be ${params.type === 'integer' ? 'an integer' : `a${/^[aeiou]/.test(String(params.type)) ? 'n' : ''} ${String(params.type)}`}, not ${quote(value)}.`
    case 'format': {
      const known = FORMATS[params.format as keyof typeof FORMATS]
      const expected = known
        ? known.shape.startsWith('an ')
          ? `${known.shape}, e.g. ${known.example}`
          : `the form ${known.shape}, e.g. ${known.example}`
        : `a valid ${String(params.format)}`
      return `${named} is invalid: ${quote(value)} is not ${expected}.`
    }
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      return `${named} is invalid: it ${error.message ?? 'is out of range'}.`
    case 'pattern':
      return `${named} is invalid: ${quote(value)} is not in the expected form.`
    case 'minLength':
      return params.limit === 1 ? `${named} is empty; it must not be.` : `${named} is too short.`
    default:
      return `${named} is invalid: it ${error.message ?? 'does not fit the schema'}.`
  }
}

function valueAt(data: unknown, instancePath: string): unknown {
  let node = data
  for (const raw of instancePath.split('/').slice(1)) {
    if (node === null || typeof node !== 'object') return undefined
    node = (node as Record<string, unknown>)[raw.replace(/~1/g, '/').replace(/~0/g, '~')]
  }
  return node
}

/**
 * The errors in the order a message tells them: `if` reports its own failure beside the
 * branch's; the branch says what is wrong, and goes after the unconditional errors.
 */
function ordered(errors: readonly ErrorObject[]): ErrorObject[] {
  const conditional = (e: ErrorObject) => /\/(then|else)\//.test(e.schemaPath)
  return errors.filter((e) => e.keyword !== 'if').sort((a, b) => Number(conditional(a)) - Number(conditional(b)))
}

/** The field of the problem a message tells first ('' for the whole input). */
export function firstField(errors: readonly ErrorObject[]): string {
  const first = ordered(errors)[0]
  return first ? fieldOf(first) : ''
}

/**
 * A message naming the first problem in plain words and listing the other fields at
 * fault, e.g. `The salary unit (field salary_unit) is invalid: "Per decade" is not one
 * of Per hour, Per year, Per week, Per month.`
 */
export function explain(errors: readonly ErrorObject[], part: Part, data?: unknown): string {
  const kept = (errors as Explainable)[EXPLAINED]
  if (kept !== undefined && kept.part === part) return kept.message
  // a missing title matters before coordinates
  const useful = ordered(errors)
  const first = useful[0]
  if (!first) return 'The request is invalid.'
  let message = sentence(first, part, valueAt(data, first.instancePath))
  if (first.keyword === 'required' && /job_l(at|ong)itude$/.test(fieldOf(first))) {
    message = message.replace('it is required.', 'it is required unless job_location is a predefined location.')
  }
  const others = [...new Set(useful.slice(1).map(fieldOf))].filter((f) => f !== fieldOf(first))
  if (others.length > 0) message += ` Also invalid: ${others.join(', ')}.`
  if (kept !== undefined) {
    kept.part = part
    kept.message = message
  }
  return message
}

/** Where an errors array marked by keepExplanation holds its explanation. */
const EXPLAINED = Symbol('jobboard-kit explanation')
type Explainable = { [EXPLAINED]?: { part: Part | undefined; message: string } }

/**
 * Marks an errors array that is only ever explained with the same data (a refusal kept by
 * the body text it was made for, src/fake/http/body.ts): its explanation is made once and
 * kept on it. Answers the array.
 */
export function keepExplanation<T extends object>(errors: T): T {
  Object.defineProperty(errors, EXPLAINED, { value: { part: undefined, message: '' } })
  return errors
}

/** How deep JSON may nest in anything the fake takes (a body, a fault's body): deeper recursion is where 500s hide. */
export const MAX_JSON_DEPTH = 64

/** Whether JSON text nests deeper than `max` (brackets outside strings). The text must already parse. */
export function textNestsDeeper(text: string, max = MAX_JSON_DEPTH): boolean {
  // text holding no more than `max` opening brackets, in strings or not, cannot: counted with
  // native scans, where the walk below reads every character in JS (a job body: 1 KB, 2 brackets)
  if (openingsUpTo(text, max + 1) <= max) return false
  let depth = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (inString) {
      if (c === 92) i++ // backslash: skip the escaped character
      else if (c === 34) inString = false
    } else if (c === 34) inString = true
    else if (c === 123 || c === 91) {
      if (++depth > max) return true
    } else if (c === 125 || c === 93) depth--
  }
  return false
}

/** The opening brackets (`{` and `[`) of a text, counted up to `limit`. */
function openingsUpTo(text: string, limit: number): number {
  let count = 0
  for (let at = text.indexOf('{'); at >= 0 && count < limit; at = text.indexOf('{', at + 1)) count++
  for (let at = text.indexOf('['); at >= 0 && count < limit; at = text.indexOf('[', at + 1)) count++
  return count
}

/**
 * Whether a value nests deeper than `max` (a cycle nests without end) or holds more
 * than a million nodes (shared branches counted each time). Iterative: no stack to overflow.
 */
export function valueNestsDeeper(value: unknown, max = MAX_JSON_DEPTH): boolean {
  const stack: Array<[unknown, number]> = [[value, 0]]
  let budget = 1_000_000
  while (stack.length > 0) {
    if (--budget < 0) return true
    const [node, depth] = stack.pop() as [unknown, number]
    if (node === null || typeof node !== 'object') continue
    if (depth + 1 > max) return true
    for (const child of Object.values(node)) if (child !== null && typeof child === 'object') stack.push([child, depth + 1])
  }
  return false
}
