// Runs the built package's one CommonJS bundle (dist/lib/kit.cjs) with V8's code cache.
// Compiling some 2.6 MB of JavaScript was the largest part of `jobboard-kit serve`'s
// start-up and of importing the package on Node 20, which keeps no compiled code between
// runs (Node 22.1+ can, but not for code run as a vm script). The build runs the command
// line once to its first answer and keeps what V8 compiled on the way beside the bundle
// (`npm run build`, through scripts/code-cache.mjs); later runs under the same V8 start
// from that instead of from the source. Under another V8 (Node was changed after the
// build) or other V8 flags, the first run keeps its own cache in the temporary folder at
// exit, as Node's compile cache does, and later runs use it; NODE_DISABLE_COMPILE_CACHE=1 turns that off,
// as it turns off Node's. A cache made from other source, or one V8 refuses, is ignored:
// the code then compiles as it would without one, and answers the same. With source maps
// asked for (--enable-source-maps), the bundle is required as Node requires any module, so that
// stack traces name the package's sources.
import { existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { basename, dirname, join } from 'node:path'
import vm from 'node:vm'
import zlib from 'node:zlib'

/**
 * What became of the code cache: used, none for this V8, made from other source, refused
 * by V8, or not looked for because source maps are on (Node maps no stack trace of a vm
 * script, nodejs/node#52102, so the bundle is then required as a module is).
 */
export type CodeCacheState = 'accepted' | 'absent' | 'stale' | 'rejected' | 'skipped'

export interface LoadOptions {
  /**
   * The folder of the caches runs keep for themselves when the build's does not fit the
   * running V8; null keeps none. By default a folder in the temporary one, unless
   * NODE_DISABLE_COMPILE_CACHE is set.
   */
  spareDir?: string | null
}

export interface LoadedBundle {
  /** The bundle's file. */
  readonly file: string
  /** The bundle's `module.exports`. */
  readonly exports: Record<string, unknown>
  readonly codeCache: CodeCacheState
  /** The cache file that was read (or, when none was, the build's for this V8). */
  readonly codeCacheFile: string
  /** V8's cache of the bundle's code as compiled so far, functions compiled since loading included, under a header naming the source. */
  makeCodeCache(): Buffer
}

const V8_TAG = `${process.arch}-v8-${process.versions.v8}`

/** Where the build keeps the cache of `file` for the running V8: beside the bundle, since V8 refuses code made by another. */
export const codeCacheFileOf = (file: string) => `${file}.${V8_TAG}.cache`

/**
 * The default folder of spare caches: the user's own in the temporary folder. Code in a
 * cache runs as it stands, so one made by another user is never read: the folder is made
 * for this user alone, and not used when someone else owns it.
 */
function defaultSpareDir(): string | null {
  if (process.env.NODE_DISABLE_COMPILE_CACHE) return null
  const uid = process.getuid?.()
  const dir = join(tmpdir(), `jobboard-kit-code-cache${uid === undefined ? '' : `-${uid}`}`)
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 })
    const owner = statSync(dir)
    return uid === undefined || (owner.uid === uid && (owner.mode & 0o022) === 0) ? dir : null
  } catch {
    return null
  }
}

// The header: a magic word, then the CRC-32 and length of the source the cache was made from
// (V8 itself only compares lengths, so an edited bundle of the same length would run stale code).
const MAGIC = 0x4a424b31 // "JBK1"
const HEADER = 12

/** The header naming `source`, or undefined where Node has no zlib.crc32 (before 20.15), which leaves caches unused. */
function headerOf(source: Buffer): Buffer | undefined {
  if (typeof zlib.crc32 !== 'function') return undefined
  const header = Buffer.alloc(HEADER)
  header.writeUInt32BE(MAGIC, 0)
  header.writeUInt32BE(zlib.crc32(source), 4)
  header.writeUInt32BE(source.length, 8)
  return header
}

/** The cached data in `cacheFile`, when it was made from the source `header` names. */
function readCache(cacheFile: string, header: Buffer): { data?: Buffer; state: CodeCacheState } {
  if (!existsSync(cacheFile)) return { state: 'absent' }
  const cache = readFileSync(cacheFile)
  if (cache.length <= HEADER || !cache.subarray(0, HEADER).equals(header)) return { state: 'stale' }
  return { data: cache.subarray(HEADER), state: 'accepted' }
}

/**
 * Whether Node was started with --enable-source-maps (on its command line or in
 * NODE_OPTIONS). Not process.sourceMapsEnabled: tsx and other loaders turn that on for
 * their own files, and a consumer's test run under one would lose the cache.
 */
const sourceMapsAsked = () => [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)].includes('--enable-source-maps')

/** Loads and runs a CommonJS bundle as Node would, but from a code cache where there is a good one. */
export function loadBundle(file: string, options: LoadOptions = {}): LoadedBundle {
  const built = codeCacheFileOf(file)
  if (sourceMapsAsked()) {
    const exports = createRequire(file)(file) as Record<string, unknown>
    const makeCodeCache = () => {
      throw new Error('jobboard-kit: no code cache is made with source maps on (--enable-source-maps)')
    }
    return { file, exports, codeCache: 'skipped', codeCacheFile: built, makeCodeCache }
  }
  const bytes = readFileSync(file)
  const header = headerOf(bytes)
  const spareDir = options.spareDir === undefined ? defaultSpareDir() : options.spareDir
  // the spare is named by the source too: every build of the package shares the folder
  const spare = header && spareDir !== null ? join(spareDir, `${basename(file)}.${header.readUInt32BE(4).toString(16)}.${V8_TAG}.cache`) : undefined
  let codeCacheFile = built
  let cached: { data?: Buffer; state: CodeCacheState } = { state: 'absent' }
  if (header) {
    // a spare exists only where the build's cache was missing or refused (other flags than the build's, say)
    const found = spare === undefined ? undefined : readCache(spare, header)
    if (found?.data !== undefined && spare !== undefined) [cached, codeCacheFile] = [found, spare]
    else cached = readCache(built, header)
  }
  // Node's own CommonJS wrapper, on the first line, so that stack traces keep the bundle's line numbers
  const script = new vm.Script(`(function (exports, require, module, __filename, __dirname) { ${bytes.toString('utf8')}\n})`, {
    filename: file,
    ...(cached.data ? { cachedData: cached.data } : {}),
  })
  const codeCache: CodeCacheState = cached.data && script.cachedDataRejected ? 'rejected' : cached.state
  const loaded: LoadedBundle = {
    file,
    exports: {},
    codeCache,
    codeCacheFile,
    makeCodeCache: () => Buffer.concat([header ?? Buffer.alloc(HEADER), script.createCachedData()]),
  }
  // at exit the cache holds what the whole run compiled; a failed write only costs the next run its head start
  if (codeCache !== 'accepted' && spare !== undefined) {
    process.once('exit', () => {
      try {
        mkdirSync(dirname(spare), { recursive: true, mode: 0o700 })
        writeCodeCache(loaded, spare)
      } catch {}
    })
  }
  const module = { exports: loaded.exports }
  const run = script.runInThisContext() as (...args: unknown[]) => void
  run.call(module.exports, module.exports, createRequire(file), module, file, dirname(file))
  return { ...loaded, exports: module.exports }
}

/** Writes `loaded`'s code cache (by default as the build's for this V8), in one step: a reader never sees half a file. */
export function writeCodeCache(loaded: LoadedBundle, to: string = codeCacheFileOf(loaded.file)): string {
  const temporary = `${to}.${process.pid}.tmp`
  writeFileSync(temporary, loaded.makeCodeCache())
  renameSync(temporary, to)
  return to
}
