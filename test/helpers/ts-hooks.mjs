// The TypeScript of a test process (test/helpers/register.mjs installs these hooks): a
// `./x.js` import of this repository's own code resolves to `./x.ts` where that exists, and
// a `.ts` file loads as the JavaScript esbuild made of it, read from a cache folder by a
// digest of its path and text. `npm test`'s first step (scripts/test-prepare.mjs) fills the
// cache for every .ts file in one esbuild call; a file changed since (or one outside the
// repository) is transformed here, once, and written back for the next process. So a test
// process pays no transform and no loader of its own beyond a digest and a read per file
// (tsx's loader cost about 0.3 s a process before any test ran). Inline source maps keep
// stack traces and tap's failure locations on the .ts lines.
// `tap`, `@tapjs/core` and `tap-parser`, and the packages a fake loads (Fastify, ajv,
// ajv-formats, fast-json-stringify, @fastify/basic-auth), imported by this repository's
// files, resolve to one bundle of them that scripts/test-prepare.mjs makes with esbuild
// (TAP_BUNDLE): tap is about 220 modules and those packages about 250 (ajv 84, semver 47
// through Fastify), and finding, reading, linking and compiling each cost a test process
// about 65 ms of CPU for tap and 120 ms for the fake's (Node 22) that the bundle's few files
// do not. Only while the bundle's stamp agrees with what is installed and built (a new `tap
// build` or install makes the test processes load the packages as they come until the next
// `npm test` bundles them again).
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const ROOT_URL = pathToFileURL(ROOT).href
/** Where the transformed files are kept; scripts/test-prepare.mjs writes the same names. */
export const CACHE = join(ROOT, 'node_modules', '.cache', 'jobboard-kit-tests', 'js')
/** Changes when the transform's options do, so a cache of other options is not read. */
const VERSION = 'esbuild-2'

/** esbuild's options for one file: this repo's tsconfig semantics (imports kept as written). */
export function transformOptions(file) {
  return {
    loader: 'ts',
    format: 'esm',
    target: `node${process.versions.node.split('.')[0]}`,
    // esbuild takes Node 20 for one without import attributes and drops them (`with { type: 'json' }`),
    // which Node 20.10 and later require of a JSON import: kept as written
    supported: { 'import-attributes': true },
    sourcemap: 'inline',
    sourcesContent: false,
    sourcefile: file,
    tsconfigRaw: { compilerOptions: { verbatimModuleSyntax: true, useDefineForClassFields: true, target: 'ES2022' } },
  }
}

/** The cache file of a .ts file's text: a digest of the transform's version, its path and its text. */
export function cachePath(file, text) {
  const digest = createHash('sha1').update(`${VERSION}\0${process.versions.node.split('.')[0]}\0${file}\0`).update(text).digest('hex')
  return join(CACHE, digest.slice(0, 2), `${digest.slice(2)}.js`)
}

/** Writes a transformed file so that a reader in another process never sees half of it. */
export function writeCached(path, code) {
  mkdirSync(dirname(path), { recursive: true })
  const partial = `${path}.${process.pid}.tmp`
  writeFileSync(partial, code)
  renameSync(partial, path)
}

let esbuild
/** The JavaScript of a .ts file: from the cache, or transformed now (and cached). */
function javascriptOf(url) {
  const file = fileURLToPath(url)
  const text = readFileSync(file, 'utf8')
  const cached = cachePath(file, text)
  try {
    return readFileSync(cached, 'utf8')
  } catch {
    esbuild ??= createRequire(import.meta.url)('esbuild')
    const { code } = esbuild.transformSync(text, transformOptions(file))
    try {
      writeCached(cached, code)
    } catch {
      // a read-only tree still runs, transforming in each process
    }
    return code
  }
}

/** `./x.js` from a file of this repository (not its node_modules) → `./x.ts` where only that exists. */
function tsTarget(specifier, parentURL) {
  if (!specifier.endsWith('.js') || parentURL === undefined || !parentURL.startsWith(ROOT_URL)) return undefined
  if (!(specifier.startsWith('./') || specifier.startsWith('../'))) return undefined
  if (parentURL.includes('/node_modules/')) return undefined
  const url = new URL(`${specifier.slice(0, -3)}.ts`, parentURL)
  return existsSync(url) && !existsSync(new URL(specifier, parentURL)) ? url.href : undefined
}

const isTs = (url) => url.startsWith('file:') && url.endsWith('.ts') && !url.includes('/node_modules/')

/** The bundle's folder: under a node_modules/@tapjs, so that tap's stack filter takes its frames for tap's own. */
export const TAP_BUNDLE = join(ROOT, 'node_modules', '.cache', 'jobboard-kit-tests', 'node_modules', '@tapjs', 'bundle')
/** The packages bundled, by the file of each in the bundle. */
export const TAP_BUNDLED = {
  tap: 'tap',
  '@tapjs/core': 'core',
  'tap-parser': 'tap-parser',
  fastify: 'fastify',
  ajv: 'ajv',
  'ajv-formats': 'ajv-formats',
  'fast-json-stringify': 'fast-json-stringify',
  '@fastify/basic-auth': 'basic-auth',
}
/** The CommonJS ones: bundled through an entry that names each export Node's own import of them gives. */
export const BUNDLED_COMMONJS = ['fastify', 'ajv', 'ajv-formats', 'fast-json-stringify', '@fastify/basic-auth']
/** What the bundle was made from: the installed packages' manifests, npm's record of the install, tap's built Test class (its plugins). */
export function tapBundleStamp() {
  const require = createRequire(import.meta.url)
  const files = [...Object.keys(TAP_BUNDLED), '@tapjs/test'].map((name) => require.resolve(`${name}/package.json`))
  files.push(join(dirname(files.at(-1)), 'test-built', 'dist', 'esm', 'index.js'), join(ROOT, 'node_modules', '.package-lock.json'))
  return `bundle-2\n${files.map((file) => `${file} ${existsSync(file) ? `${statSync(file).size} ${statSync(file).mtimeMs}` : '-'}`).join('\n')}\n`
}
let tapBundle
/** The bundle's URL of a bundled package imported (not required) by this repository's own sources, while the bundle is current. */
function bundled(specifier, { parentURL, conditions }) {
  const name = TAP_BUNDLED[specifier]
  if (name === undefined || parentURL === undefined || !parentURL.startsWith(ROOT_URL) || conditions?.includes('require')) return undefined
  if (parentURL.includes('/node_modules/') || parentURL.startsWith(`${ROOT_URL}dist/`)) return undefined
  if (tapBundle === undefined) {
    try {
      tapBundle = readFileSync(join(TAP_BUNDLE, 'stamp'), 'utf8') === tapBundleStamp() ? pathToFileURL(TAP_BUNDLE).href : null
    } catch {
      tapBundle = null
    }
  }
  return tapBundle === null ? undefined : `${tapBundle}/${name}.mjs`
}

// module.registerHooks (Node 22.15+, in the process's own thread)
export function resolveSync(specifier, context, next) {
  const tap = bundled(specifier, context)
  if (tap !== undefined) return { url: tap, format: 'module', shortCircuit: true }
  const url = tsTarget(specifier, context.parentURL)
  return url === undefined ? next(specifier, context) : { url, format: 'module', shortCircuit: true }
}
export function loadSync(url, context, next) {
  return isTs(url) ? { format: 'module', source: javascriptOf(url), shortCircuit: true } : next(url, context)
}

// module.register (Node 20 and earlier 22s, on the loader thread)
export async function resolve(specifier, context, next) {
  return resolveSync(specifier, context, next)
}
export async function load(url, context, next) {
  return loadSync(url, context, next)
}
