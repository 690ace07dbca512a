// The package as a consumer gets it: packed, installed into a scratch project, its
// `jobboard-kit` command run with npx and its entry points imported. Catches a missing
// file in `files`, a broken bin or an export that points nowhere. Needs the npm
// registry for the dependencies, so it runs with the slow tests in CI.
import { execFileSync, spawn } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import t from 'tap'
import { ROOT } from '../helpers/cli.js'

const npm = (args: string[], cwd: string) => execFileSync('npm', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })

t.test('installs from its tarball and runs as a dependency', async (t) => {
  const scratch = mkdtempSync(join(tmpdir(), 'jobboard-kit-consumer-'))
  t.teardown(() => rmSync(scratch, { recursive: true, force: true }))
  npm(['pack', '--pack-destination', scratch], ROOT)
  const tarball = readdirSync(scratch).find((f) => f.endsWith('.tgz')) as string
  t.ok(tarball, 'npm pack made a tarball')
  writeFileSync(join(scratch, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }))
  npm(['install', '--no-audit', '--no-fund', `./${tarball}`, 'nock@14'], scratch)

  const help = execFileSync('npx', ['--no-install', 'jobboard-kit', '--help'], { cwd: scratch, encoding: 'utf8' })
  t.match(help, /serve/, 'npx jobboard-kit --help lists serve')

  // npx runs the bin through a shell: a group of its own lets the teardown stop them all
  // no rate limit: the probe below and the contract run read the same URLs (else the run is incomplete, exit 3)
  const child = spawn('npx', ['--no-install', 'jobboard-kit', 'serve', '--port', '0', '--scenario', 'empty', '--rate-limit-window', '0'], { cwd: scratch, detached: true })
  t.teardown(() => process.kill(-(child.pid as number), 'SIGKILL'))
  const url = await new Promise<string>((resolve, reject) => {
    let out = ''
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk
      const match = /jobboard-kit listening on (http:\/\/\S+)/.exec(out)
      if (match) resolve(match[1] as string)
    })
    child.on('exit', (code) => reject(new Error(`serve exited ${code}`)))
  })
  const answer = await fetch(`${url}/api/v1/metrics/list`, { headers: { authorization: `Basic ${Buffer.from('jobboard:jobboard').toString('base64')}` } })
  t.equal(answer.status, 200, 'the installed fake answers')
  // the page's script is bundled from its browser code by the build (src/watch/ui/page-script.ts): a consumer, who has no esbuild, gets it whole
  t.notOk(existsSync(join(scratch, 'node_modules', 'esbuild')), 'the consumer has no esbuild')
  const pageScript = await fetch(`${url}/__mock/ui/ui.js`)
  t.equal(pageScript.status, 200, '/__mock/ui/ui.js from the installed package')
  t.match(await pageScript.text(), /function draw\(\)/, "is the page's script")

  const script = join(scratch, 'use.mjs')
  writeFileSync(
    script,
    `import { createRequire } from 'node:module'
import { createMockServer, schemas } from 'jobboard-kit'
import { interceptBoard } from 'jobboard-kit/nock'
const board = await createMockServer({ scenario: 'empty' })
const nocked = interceptBoard('https://board.example.com', board)
const res = await fetch('https://board.example.com/api/v1/job/fields', { headers: { authorization: 'Basic ' + btoa('jobboard:jobboard') } })
// the precompiled validators travel in the bundle: none is loaded from dist/precompiled/
const loose = Object.keys(createRequire(import.meta.url).cache).filter((file) => file.includes('precompiled'))
console.log(res.status, typeof schemas.candidate, loose.length)
nocked.stop()
await board.close()
`,
  )
  t.equal(execFileSync(process.execPath, [script], { cwd: scratch, encoding: 'utf8', timeout: 60_000 }).trim(), '200 object 0', 'the entry and jobboard-kit/nock import and work, loading no validator file')

  // Node 22.1+: the command keeps the compiled code of the modules Node's loader loads in Node's compile cache
  const [major, minor] = process.versions.node.split('.').map(Number) as [number, number]
  const cacheable = major > 22 || (major === 22 && minor >= 1)
  // the command turns the cache on itself, in Node's default folder: node-compile-cache in the temporary one
  const temporary = join(scratch, 'tmp')
  mkdirSync(temporary)
  const cacheDir = join(temporary, 'node-compile-cache')
  const env = { ...process.env, TMPDIR: temporary, NODE_COMPILE_CACHE: undefined, NODE_DISABLE_COMPILE_CACHE: undefined }
  const cachedRun = () => execFileSync(process.execPath, [join(scratch, 'node_modules/jobboard-kit/bin/jobboard-kit.js'), '--version'], { cwd: scratch, encoding: 'utf8', env })
  const first = cachedRun()
  const kept = existsSync(cacheDir) ? readdirSync(cacheDir, { recursive: true }).length : 0
  if (cacheable) t.ok(kept > 0, `a run leaves V8's compiled code in the temporary folder's node-compile-cache (${kept} entries)`)
  else t.equal(kept, 0, 'Node 20 has no compile cache of its own')
  // and on every Node the CLI's bundle has V8's code cache of a whole run (bin/code-cache.js)
  const codeCache = join(temporary, 'jobboard-kit-code-cache')
  t.ok(existsSync(codeCache) && readdirSync(codeCache).some((file) => file.endsWith('.v8')), 'a run leaves the code cache of the command line in the temporary folder')
  t.match(first, /^\d+\.\d+\.\d+/, 'the run printed the version')
  t.equal(cachedRun(), first, 'and the next run, from that cache, answers the same')
  const contract = execFileSync('npx', ['--no-install', 'jobboard-kit', 'contract', '--base-url', url, '--username', 'jobboard', '--password', 'jobboard'], {
    cwd: scratch,
    encoding: 'utf8',
    timeout: 120_000,
  })
  t.match(contract, /\d+ passed, 0 failed/, 'the installed contract kit passes against the installed fake')
})
