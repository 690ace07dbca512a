// Runs the built package's one CommonJS bundle (dist/lib/kit.cjs) with V8's code cache.
// Compiling some 2.6 MB of JavaScript was the largest part of `jobboard-kit serve`'s
// start-up and of importing the package on Node 20, which keeps no compiled code between
// runs (Node 22.1+ can, for modules its loader loads). The build runs the command line once
// to its first answer and keeps what V8 compiled on the way (`npm run build`, through
// scripts/code-cache.mjs); later runs under the same V8 start from that instead of from
// the source. A cache made for other source or another V8, or one V8 refuses, is ignored:
// the code then compiles as it would without one, and answers the same.
import { existsSync, readFileSync, writeFileSync, renameSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname } from 'node:path'
import vm from 'node:vm'
import zlib from 'node:zlib'

/** What became of the code cache: used, none for this V8, made for other source, or refused by V8. */
export type CodeCacheState = 'accepted' | 'absent' | 'stale' | 'rejected'

export interface LoadedBundle {
  /** The bundle's `module.exports`. */
  readonly exports: Record<string, unknown>
  readonly codeCache: CodeCacheState
  /** V8's cache of the bundle's code as compiled so far, functions compiled since loading included, under a header naming the source. */
  makeCodeCache(): Buffer
  /** The file the code cache of this V8 is read from. */
  readonly codeCacheFile: string
}

/**
 * Where the cache of `file` for the running V8 lives: beside the bundle, one per V8
 * version and architecture, since V8 refuses code made by another.
 */
export const codeCacheFileOf = (file: string) => `${file}.${process.arch}-v8-${process.versions.v8}.cache`

// The header: a magic word, then the CRC-32 and length of the source the cache was made from
// (V8 itself only compares lengths, so an edited bundle of the same length would run stale code).
const MAGIC = 0x4a424b31 // "JBK1"
const HEADER = 12

/** The header naming `source`, or undefined where Node has no zlib.crc32 (before 20.15), which leaves the cache unused. */
function headerOf(source: Buffer): Buffer | undefined {
  if (typeof zlib.crc32 !== 'function') return undefined
  const header = Buffer.alloc(HEADER)
  header.writeUInt32BE(MAGIC, 0)
  header.writeUInt32BE(zlib.crc32(source), 4)
  header.writeUInt32BE(source.length, 8)
  return header
}

/** The cached data of `file` for this V8, when it was made from these bytes of source. */
function readCache(cacheFile: string, header: Buffer | undefined): { data?: Buffer; state: CodeCacheState } {
  if (header === undefined || !existsSync(cacheFile)) return { state: 'absent' }
  const cache = readFileSync(cacheFile)
  if (cache.length <= HEADER || !cache.subarray(0, HEADER).equals(header)) return { state: 'stale' }
  return { data: cache.subarray(HEADER), state: 'accepted' }
}

/** Loads and runs a CommonJS bundle as Node would, but from its code cache where there is a good one. */
export function loadBundle(file: string): LoadedBundle {
  const bytes = readFileSync(file)
  const header = headerOf(bytes)
  const codeCacheFile = codeCacheFileOf(file)
  const cached = readCache(codeCacheFile, header)
  // Node's own CommonJS wrapper, on the first line, so that stack traces keep the bundle's line numbers
  const script = new vm.Script(`(function (exports, require, module, __filename, __dirname) { ${bytes.toString('utf8')}\n})`, {
    filename: file,
    ...(cached.data ? { cachedData: cached.data } : {}),
  })
  const codeCache: CodeCacheState = cached.data && script.cachedDataRejected ? 'rejected' : cached.state
  const module = { exports: {} as Record<string, unknown> }
  const run = script.runInThisContext() as (...args: unknown[]) => void
  run.call(module.exports, module.exports, createRequire(file), module, file, dirname(file))
  return {
    exports: module.exports,
    codeCache,
    codeCacheFile,
    makeCodeCache: () => Buffer.concat([header ?? Buffer.alloc(HEADER), script.createCachedData()]),
  }
}

/** Writes `loaded`'s code cache for this V8 beside the bundle, in one step (a reader never sees half a file). */
export function writeCodeCache(loaded: LoadedBundle): string {
  const temporary = `${loaded.codeCacheFile}.${process.pid}.tmp`
  writeFileSync(temporary, loaded.makeCodeCache())
  renameSync(temporary, loaded.codeCacheFile)
  return loaded.codeCacheFile
}
