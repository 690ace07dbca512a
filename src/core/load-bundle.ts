// Runs the built package's one CommonJS bundle (dist/lib/kit.cjs) with V8's code cache.
// Compiling some 2.6 MB of JavaScript was the largest part of `jobboard-kit serve`'s
// start-up and of importing the package on Node 20, which keeps no compiled code between
// runs (Node 22.1+ can, but not for code run as a vm script). The build runs the command
// line once to its first answer and keeps what V8 compiled on the way beside the bundle
// (`npm run build`, through scripts/code-cache.mjs); later runs under the same V8 start
// from that instead of from the source.
//
// Under another V8 (Node was changed after the build) or other V8 flags, the first run
// keeps its own cache in the user's folder of the temporary one at exit, as Node's compile
// cache does, and later runs use it; NODE_DISABLE_COMPILE_CACHE=1 turns that off, as it
// turns off Node's. A cache made from other source, one V8 refuses, or one that cannot be
// read is ignored: the code then compiles as it would without one, and answers the same.
// With source maps asked for (--enable-source-maps), the bundle is required as Node
// requires any module, so that stack traces name the package's sources.
import { createHash } from 'node:crypto'
import { lstatSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { basename, dirname, join } from 'node:path'
import vm from 'node:vm'
import { threadId } from 'node:worker_threads'
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
   * running V8; null keeps none. By default the user's own folder in the temporary one,
   * unless NODE_DISABLE_COMPILE_CACHE is set.
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

/** Node's flags, from its command line and NODE_OPTIONS. */
const nodeFlags = () => [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/).filter(Boolean)]

/**
 * Whether Node was started with --enable-source-maps. Not process.sourceMapsEnabled: tsx
 * and other loaders turn that on for their own files, and a consumer's test run under one
 * would lose the cache.
 */
export const sourceMapsAsked = (flags = nodeFlags()) =>
  flags.some((flag) => flag === '--enable-source-maps' || (flag.startsWith('--enable-source-maps=') && flag !== '--enable-source-maps=false'))

/**
 * The default folder of spare caches: the user's own in the temporary folder. Code in a
 * cache runs as it stands, so one another user could write is never read nor written:
 * the folder is made for this user alone, and not used when it is a link, someone else
 * owns it, or others may write in it.
 */
function defaultSpareDir(): string | null {
  if (process.env.NODE_DISABLE_COMPILE_CACHE) return null
  const uid = process.getuid?.()
  return join(tmpdir(), `jobboard-kit-code-cache${uid === undefined ? '' : `-${uid}`}`)
}

/** Whether `dir` is a folder only this user can write in (anything goes where there are no user ids). */
function ownFolder(dir: string): boolean {
  const uid = process.getuid?.()
  try {
    const stat = lstatSync(dir)
    return stat.isDirectory() && (uid === undefined || (stat.uid === uid && (stat.mode & 0o022) === 0))
  } catch {
    return false
  }
}

// The header: a magic word naming the digest, then the digest and length of the source the
// cache was made from (V8 itself only compares lengths, so an edited bundle of the same
// length would run stale code). CRC-32 where Node has it (20.15+), else the head of a SHA-1.
const HEADER = 12
const CRC32 = 0x4a424b31 // "JBK1"
const SHA1 = 0x4a424b32 // "JBK2"

/** The header naming `source`. */
function headerOf(source: Buffer): Buffer {
  const header = Buffer.alloc(HEADER)
  if (typeof zlib.crc32 === 'function') {
    header.writeUInt32BE(CRC32, 0)
    header.writeUInt32BE(zlib.crc32(source), 4)
  } else {
    header.writeUInt32BE(SHA1, 0)
    createHash('sha1').update(source).digest().copy(header, 4, 0, 4)
  }
  header.writeUInt32BE(source.length, 8)
  return header
}

/** The cached data in `cacheFile`, when it was made from the source `header` names; any file that cannot be read counts as none. */
function readCache(cacheFile: string, header: Buffer): { data?: Buffer; state: CodeCacheState } {
  let cache: Buffer
  try {
    cache = readFileSync(cacheFile)
  } catch {
    return { state: 'absent' }
  }
  if (cache.length <= HEADER || !cache.subarray(0, HEADER).equals(header)) return { state: 'stale' }
  return { data: cache.subarray(HEADER), state: 'accepted' }
}

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
  // named by the source, so every build of the package shares the folder, and by Node's
  // flags, which V8 checks too: runs with other flags keep their own spare, not each other's
  const flags = createHash('sha1').update(nodeFlags().join('\n')).digest('hex').slice(0, 8)
  const spare = spareDir === null ? undefined : join(spareDir, `${basename(file)}.${header.toString('hex', 4, 8)}.${flags}.${V8_TAG}.cache`)
  let codeCacheFile = built
  // a spare exists only where the build's cache was missing or refused (other flags than the build's, say)
  let cached = spare !== undefined && spareDir !== null && ownFolder(spareDir) ? readCache(spare, header) : undefined
  if (cached?.data !== undefined && spare !== undefined) codeCacheFile = spare
  else cached = readCache(built, header)
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
    makeCodeCache: () => Buffer.concat([header, script.createCachedData()]),
  }
  // at exit the cache holds what the whole run compiled; a failed write only costs the next run its head start
  if (codeCache !== 'accepted' && spare !== undefined && spareDir !== null) {
    process.once('exit', () => {
      try {
        mkdirSync(spareDir, { recursive: true, mode: 0o700 })
        if (ownFolder(spareDir)) writeCodeCache(loaded, spare)
      } catch {}
    })
  }
  const module = { exports: loaded.exports }
  const run = script.runInThisContext() as (...args: unknown[]) => void
  run.call(module.exports, module.exports, createRequire(file), module, file, dirname(file))
  return { ...loaded, exports: module.exports }
}

/** Writes `loaded`'s code cache (by default as the build's for this V8), in one step: a reader never sees half a file, and a failed write leaves nothing. */
export function writeCodeCache(loaded: LoadedBundle, to: string = codeCacheFileOf(loaded.file)): string {
  const temporary = `${to}.${process.pid}-${threadId}.tmp`
  try {
    writeFileSync(temporary, loaded.makeCodeCache())
    renameSync(temporary, to)
  } catch (error) {
    rmSync(temporary, { force: true })
    throw error
  }
  return to
}
