// Build step after bundle.mjs (`npm run build`): runs `jobboard-kit serve` once to its first
// answer and keeps the code V8 compiled on the way as dist/lib/kit.cjs's code cache for this
// Node (src/load-bundle.ts reads it). What the run compiled is what every start compiles:
// the modules' top levels, building the app and the board, and a first list answered.
// A start that goes further compiles the rest as it goes, as it would without a cache.
import { spawn } from 'node:child_process'
import { existsSync, statSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))
const bin = fileURLToPath(new URL('../bin/jobboard-kit.js', import.meta.url))
const { codeCacheFileOf } = await import(new URL('../dist/lib/load-bundle.js', import.meta.url).href)
const cacheFile = codeCacheFileOf(fileURLToPath(new URL('../dist/lib/kit.cjs', import.meta.url)))
const authorization = `Basic ${Buffer.from('jobboard:jobboard').toString('base64')}`

const child = spawn(process.execPath, [bin, 'serve', '--port', '0', '--host', '127.0.0.1'], {
  cwd: root,
  // with source maps asked for, the bundle would be required, not run from a cache (src/load-bundle.ts)
  env: { ...process.env, JOBBOARD_KIT_WRITE_CODE_CACHE: '1', NODE_OPTIONS: (process.env.NODE_OPTIONS ?? '').replaceAll('--enable-source-maps', '') },
  stdio: ['ignore', 'pipe', 'inherit'],
})
const exited = new Promise((resolve) => child.once('exit', resolve))
const url = await new Promise((resolve, reject) => {
  let text = ''
  const timer = setTimeout(() => reject(new Error('jobboard-kit serve printed no ready line within 60 s')), 60_000)
  child.stdout.on('data', (chunk) => {
    text += chunk
    const found = /listening on (http:\/\/\S+)/.exec(text)?.[1]
    if (found === undefined) return
    clearTimeout(timer)
    resolve(found)
  })
  child.once('exit', (code) => reject(new Error(`jobboard-kit serve exited ${code} before it was ready`)))
})
const answer = await fetch(`${url}/api/v1/candidates/list`, { headers: { authorization } })
await answer.arrayBuffer()
if (answer.status !== 200) throw new Error(`the first answer was ${answer.status}`)
child.kill('SIGTERM')
const code = await exited
if (code !== 0 || !existsSync(cacheFile)) throw new Error(`jobboard-kit serve exited ${code} and wrote no code cache`)
process.stdout.write(`kept V8's code cache (${(statSync(cacheFile).size / 2 ** 20).toFixed(1)} MiB) as ${cacheFile}\n`)
