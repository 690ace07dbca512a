// V8's code cache for the built package, on every Node: the command line (dist/lib/cli.cjs)
// and the library (dist/lib/lib.cjs, under the ES entries of package.json's exports), each
// one CommonJS file (scripts/bundle.mjs), are compiled with vm.Script and the cached data of
// an earlier run, and when there was none (or V8 refused it: another Node, other flags,
// another build) the cache is written once the run has served its first answer (a fake
// says so: src/fake/first-answer.ts), the library's again as the process exits, a command's
// only then if it never answered: it holds every function the run had compiled by then, not
// only the top level as Node's compile cache does (and Node 20 has none). A run killed after its first answer (SIGKILL, a CI runner's timeout, a crashed
// harness) still leaves its cache; one killed while writing leaves the old cache or none,
// never half of one (written whole, then renamed). One cache per command (`serve`,
// `contract`, …) and one for the library: each starts
// from what its own kind of run compiled. Kept in
// NODE_COMPILE_CACHE's folder when set, else in the temporary folder; off with
// NODE_DISABLE_COMPILE_CACHE=1 as Node's is. A cache that cannot be read or written only
// costs the time it would have saved. Why not Node's compile cache: docs/architecture.md.
// The package's loaders read it (bin/jobboard-kit.js, the library's dist/lib/load.js, the
// executable's main script), never a product: so it lives with the command line, not core.
import { FIRST_ANSWER } from '../fake/first-answer.js'

// Node's own modules as require gives them, not by ES imports: an ES import of node:fs or
// node:crypto builds its ES facade, which reads every export, lazy ones included, and so
// loads fs/promises, its streams and readline, and Web Crypto. On Node 24 that was some 6 ms
// of CPU before the bundle even began, at every start (the bare Fastify server pays none of
// it): docs/architecture.md, Start-up.
const { createHash } = process.getBuiltinModule('node:crypto')
const { mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } = process.getBuiltinModule('node:fs')
const module = process.getBuiltinModule('node:module')
const { createRequire } = module
const { tmpdir } = process.getBuiltinModule('node:os')
const { dirname, join } = process.getBuiltinModule('node:path')
const { fileURLToPath } = process.getBuiltinModule('node:url')
const vm = process.getBuiltinModule('node:vm')

/** What runWithCodeCache compiles and runs: a CommonJS file's text and where it stands for. */
export interface CachedModule {
  /** The module's source, as a CommonJS file holds it, or already wrapped as CommonJS wraps it (`wrapped`). */
  source: string
  /** The source is module.wrap's text already (the package's bundles, scripts/bundle.mjs): compiled as it is, not copied. */
  wrapped?: boolean
  /** Its path (its __filename, and the name in stack traces). */
  filename: string
  /** What identifies this very build on this machine: a cache made for another is never read. */
  build: string
  /** The kind of run (a command's name, `library`): each keeps a cache of its own. */
  command: string | undefined
  /** The require the module is given. */
  require: NodeJS.Require
  /**
   * Write the cache again as the process exits, with what the rest of the run compiled (the
   * library: a program's later fakes and routes). Without it (a command), a run that answered
   * keeps what it compiled up to its first answer: what the next start needs before its own.
   */
  wholeRun?: boolean
}

/**
 * Runs a CommonJS module as require would, compiled with V8's code cache of an earlier run
 * of the same kind, and answers its exports. The package loads its bundles through it
 * (loadWithCodeCache), the single executable its one bundle (scripts/build-exe.mjs).
 */
export function runWithCodeCache({ source, wrapped = false, filename, build, command, require, wholeRun = false }: CachedModule): Record<string, unknown> {
  const off = process.env.NODE_DISABLE_COMPILE_CACHE === '1'
  const dir = process.env.NODE_COMPILE_CACHE || join(tmpdir(), 'jobboard-kit-code-cache')
  // the build, and the Node that compiled it: another build or Node is another entry
  const key = createHash('sha256').update(`${build}\0${process.version}\0${process.arch}`).digest('hex').slice(0, 24)
  // a command's name as the file's, anything else (an option, a typo, nothing) shares one
  const name = typeof command === 'string' && /^[a-z][a-z-]{0,19}$/.test(command) ? command : 'other'
  const cacheFile = join(dir, `cli-${name}-${key}.v8`)
  let cachedData: Buffer | undefined
  if (!off) {
    try {
      cachedData = readFileSync(cacheFile)
    } catch {
      // no cache yet: this run makes it
    }
  }
  const script = new vm.Script(compiledText(source, wrapped), { filename, cachedData })
  if (!off && (cachedData === undefined || script.cachedDataRejected)) {
    let written = false
    const write = () => {
      written = true
      const partial = `${cacheFile}.${process.pid}`
      try {
        mkdirSync(dir, { recursive: true })
        // written whole, then renamed: a process starting meanwhile (or after this one was
        // killed while writing) reads the old cache or none, never half of one
        writeFileSync(partial, script.createCachedData())
        renameSync(partial, cacheFile)
      } catch {
        // a folder that cannot be written (a read-only root, no /tmp): the next run compiles again
        rmSync(partial, { force: true })
      }
    }
    // once the first answer is out (on a later turn, so that it is not held up): a run killed
    // after its first answer leaves one. A command's is not written again at exit: what the
    // rest of its run compiled (a graceful stop's verdict, later routes) was deserialized at
    // every start before the first answer and grew the heap the collector walks
    // (docs/architecture.md, Start-up). A run that never answers (`contract`, `openapi`, a
    // serve that fails to start) writes it as it exits, and the library's is written again then.
    process.once(FIRST_ANSWER, () => void setImmediate(write).unref())
    process.once('exit', () => {
      if (wholeRun || !written) write()
    })
  }
  const wrapper = script.runInThisContext({ displayErrors: true }) as (...args: unknown[]) => void
  const loaded = { exports: {} as Record<string, unknown> }
  wrapper.call(loaded.exports, loaded.exports, require, loaded, filename, dirname(filename))
  return loaded.exports
}

/**
 * Node's major from 24 on (V8 13): a wrapped bundle is compiled as it was read, a string
 * outside V8's heap. Wrapped again at run time, the 5 MB copy on the heap brought a
 * mark-compact before `serve`'s first answer there (its start 8 % more CPU, measured in
 * pairs). Node 22's V8 (12.4) starts that collection for the memory outside its heap
 * instead (the string and the file's buffer), so there a copy on the heap starts faster
 * (6 % less CPU, the same measure): docs/architecture.md, Start-up.
 */
const SOURCE_OFF_HEAP = Number(process.versions.node.split('.')[0]) >= 24

/** The text V8 compiles: module.wrap's, the wrapped text as it is where it stays off the heap, else a copy on the heap. */
function compiledText(source: string, wrapped: boolean): string {
  if (!wrapped) return module.wrap(source)
  if (SOURCE_OFF_HEAP) return source
  const [before, after] = module.wrap('\0').split('\0') as [string, string]
  return module.wrap(source.slice(before.length, source.length - after.length))
}

/** Loads the CommonJS file at `url` as require would, through the code cache of `command`'s runs; answers its exports. */
export function loadWithCodeCache(url: URL, command: string | undefined): Record<string, unknown> {
  const filename = fileURLToPath(url)
  // the build's file by its path, size and time
  const stat = statSync(filename)
  const build = `${filename}\0${stat.size}\0${stat.mtimeMs}`
  // the bundles are ASCII and wrapped already (scripts/bundle.mjs): read as Latin-1, the same
  // text, copied rather than decoded, into a string outside V8's heap that is compiled as it is
  return runWithCodeCache({ source: readFileSync(filename, 'latin1'), wrapped: true, filename, build, command, require: createRequire(filename), wholeRun: command === 'library' })
}
