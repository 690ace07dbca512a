// Build step after bundle.mjs (`npm run build`): runs `jobboard-kit serve` once to its first
// answer and keeps the code V8 compiled on the way as dist/lib/kit.cjs's code cache for this
// Node (src/core/load-bundle.ts reads it). What the run compiled is what every start compiles:
// the modules' top levels, building the app and the board, and a first list answered.
// A start that goes further compiles the rest as it goes, as it would without a cache.
//
// The package works without the cache, only starts slower: when this step fails (no
// loopback, say) it says so and leaves the build as it is, unless given --strict (the bench).
import { spawn } from 'node:child_process'
import { rmSync, statSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))
const bin = fileURLToPath(new URL('../bin/jobboard-kit.js', import.meta.url))
const { codeCacheFileOf, sourceMapsAsked } = await import(new URL('../dist/lib/load-bundle.js', import.meta.url).href)
const cacheFile = codeCacheFileOf(fileURLToPath(new URL('../dist/lib/kit.cjs', import.meta.url)))
const authorization = `Basic ${Buffer.from('jobboard:jobboard').toString('base64')}`
const strict = process.argv.includes('--strict')

/** Runs serve with the cache written at its exit, asks its first answer and stops it, whatever happens on the way. */
async function makeCache() {
  const options = (process.env.NODE_OPTIONS ?? '').split(/\s+/).filter((flag) => flag !== '' && !sourceMapsAsked([flag]))
  const child = spawn(process.execPath, [bin, 'serve', '--port', '0', '--host', '127.0.0.1'], {
    cwd: root,
    // with source maps asked for, the bundle would be required, not run from a cache
    env: { ...process.env, JOBBOARD_KIT_WRITE_CODE_CACHE: '1', NODE_OPTIONS: options.join(' ') },
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal)))
  const within = (promise, ms, what) =>
    Promise.race([promise, new Promise((_, reject) => setTimeout(() => reject(new Error(`${what} within ${ms / 1000} s`)), ms).unref())])
  try {
    const url = await within(
      new Promise((resolve, reject) => {
        let text = ''
        child.stdout.on('data', (chunk) => {
          text += chunk
          const found = /listening on (http:\/\/\S+)/.exec(text)?.[1]
          if (found !== undefined) resolve(found)
        })
        child.once('exit', (code) => reject(new Error(`jobboard-kit serve exited ${code} before it was ready`)))
      }),
      60_000,
      'jobboard-kit serve printed no ready line',
    )
    const answer = await within(fetch(`${url}/api/v1/candidates/list`, { headers: { authorization } }), 30_000, 'no first answer')
    await answer.arrayBuffer()
    if (answer.status !== 200) throw new Error(`the first answer was ${answer.status}`)
    child.kill('SIGTERM')
    const code = await within(exited, 30_000, 'jobboard-kit serve did not stop')
    if (code !== 0) throw new Error(`jobboard-kit serve exited ${code}`)
    statSync(cacheFile)
  } catch (error) {
    child.kill('SIGKILL')
    throw error
  }
}

try {
  await makeCache()
  process.stdout.write(`kept V8's code cache (${(statSync(cacheFile).size / 2 ** 20).toFixed(1)} MiB) as ${cacheFile}\n`)
} catch (error) {
  rmSync(cacheFile, { force: true })
  process.stderr.write(`jobboard-kit build: made no code cache (${error.message}); the package works without it, but starts slower\n`)
  if (strict) process.exitCode = 1
}
