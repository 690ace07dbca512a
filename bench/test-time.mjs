// `npm test` as a newcomer meets it (issue 36): a new clone of this repository in a temporary
// folder, `npm ci`, then `npm test` with every cache empty (TMPDIR, XDG_CACHE_HOME and so
// tsx's cache, no NODE_COMPILE_CACHE, no tap build, no node_modules/.cache), timed, and where
// the time went: the steps before the first test file (the tap build, the one-time transform),
// each test process's own time (tap's `# time=` per file), the start-up every process pays
// (a no-op test file and one that imports the fake, spawned as tap spawns them, warm), the
// CPU of the whole run. Plain JavaScript, so that measuring needs no TypeScript loader.
//
//   node bench/test-time.mjs                       # the Node that runs it, the repo's HEAD
//   node bench/test-time.mjs --node /path/to/node  # another Node (repeatable: one clone each)
//   node bench/test-time.mjs --ref <commit>        # another commit (before/after side by side)
//   node bench/test-time.mjs --prepare             # `npm ci` with its prepare script (the README's
//                                                  # `npm ci` builds dist/; off: --ignore-scripts, as .ci/run)
//   node bench/test-time.mjs --keep                # keep the temporary folder
//   node bench/test-time.mjs --json out.json       # also write the figures as JSON
//   node bench/test-time.mjs --log out.log         # also write npm test's output (out.log.<node version>)
// It never fails on a figure; the exit code is npm test's.
import { spawn, spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const args = process.argv.slice(2)
const flag = (name) => args.includes(name)
const values = (name) => args.flatMap((a, i) => (a === name && args[i + 1] ? [args[i + 1]] : []))
if (flag('--help')) {
  process.stdout.write(readFileSync(fileURLToPath(import.meta.url), 'utf8').split('\nimport ')[0])
  process.exit(0)
}
const nodes = values('--node').length > 0 ? values('--node').map((n) => resolve(n)) : [process.execPath]
const ref = values('--ref')[0]
const repo = resolve(values('--repo')[0] ?? ROOT)
const NOOP = "import t from 'tap'\nt.pass('nothing')\n"
const FAKE = `import t from 'tap'\nimport { createMockServer } from '../src/index.js'\nconst fake = await createMockServer()\nconst res = await fake.inject({ url: '/api/v1/metrics/list', headers: { authorization: 'Basic ' + Buffer.from('jobboard:jobboard').toString('base64') } })\nt.equal(res.statusCode, 200)\nawait fake.close()\n`

const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]

/** Runs a command, streaming its output into `lines` with the time each arrived. */
function run(command, argv, options, onLine = () => {}) {
  return new Promise((done) => {
    const start = performance.now()
    const child = spawn(command, argv, { ...options, stdio: ['ignore', 'pipe', 'pipe'] })
    let out = ''
    let rest = ''
    const take = (chunk) => {
      const text = rest + chunk
      const parts = text.split('\n')
      rest = parts.pop() ?? ''
      for (const line of parts) {
        out += `${line}\n`
        onLine(line, performance.now() - start)
      }
    }
    child.stdout.setEncoding('utf8').on('data', take)
    child.stderr.setEncoding('utf8').on('data', take)
    child.on('close', (code) => {
      if (rest) take('\n')
      done({ code, ms: performance.now() - start, out })
    })
  })
}

/** One Node: clone, npm ci, npm test, then the start-up probes in the same clone. */
async function measure(node) {
  const version = spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout.trim()
  const reuse = values('--probes-only')[0]
  const top = reuse ? resolve(reuse) : mkdtempSync(join(tmpdir(), 'jobboard-kit-test-time-'))
  const clone = join(top, 'repo')
  if (!reuse) for (const dir of ['tmp', 'cache']) mkdirSync(join(top, dir))
  // the spec as CI has it: shared/ beside the clone (some tests read ../shared, the rest skip without it)
  const shared = join(repo, '..', 'shared')
  if (!reuse && existsSync(shared)) symlinkSync(shared, join(top, 'shared'))
  const env = { ...process.env, PATH: `${dirname(node)}:${process.env.PATH}`, TMPDIR: join(top, 'tmp'), XDG_CACHE_HOME: join(top, 'cache') }
  // a newcomer has none of these: a compile cache folder for every process, a loader, tap's config
  for (const name of Object.keys(env)) if (/^(NODE_COMPILE_CACHE|NODE_OPTIONS|TSX_|TAP_|TAP$)/.test(name)) delete env[name]
  process.stdout.write(`\n== Node ${version} (${node})\n   folder ${top}\n`)

  const result = reuse ? { node: version, files: 0 } : await cloneAndTest(version, clone, env)
  if (result.failed) return result
  if (!reuse) report(result)
  await probe(node, clone, env, result)
  if (!flag('--keep') && !reuse) rmSync(top, { recursive: true, force: true })
  return result
}

/** A new clone, npm ci, npm test. */
async function cloneAndTest(version, clone, env) {
  const clone0 = performance.now()
  spawnSync('git', ['clone', '--quiet', repo, clone], { stdio: 'inherit' })
  if (ref) {
    // a commit or ref the clone may lack (a ref outside refs/heads, such as a before/after pair)
    spawnSync('git', ['-C', clone, 'fetch', '--quiet', 'origin', ref], { stdio: 'inherit' })
    spawnSync('git', ['-C', clone, 'checkout', '--quiet', 'FETCH_HEAD'], { stdio: 'inherit' })
  }
  const head = spawnSync('git', ['-C', clone, 'log', '-1', '--format=%h %s'], { encoding: 'utf8' }).stdout.trim()
  process.stdout.write(`   commit ${head.slice(0, 100)}\n   clone ${seconds(performance.now() - clone0)}\n`)

  const ci = await run('npm', ['ci', '--no-audit', '--no-fund', ...(flag('--prepare') ? [] : ['--ignore-scripts'])], { cwd: clone, env })
  process.stdout.write(`   npm ci ${seconds(ci.ms)}${ci.code === 0 ? '' : ` (failed, exit ${ci.code})`}\n`)
  if (ci.code !== 0) {
    process.stdout.write(ci.out.slice(-3000))
    return { version, failed: 'npm ci' }
  }

  // npm test under bash's `time`: the CPU of every process it waited for
  let firstFile
  const test = await run(
    'bash',
    ['-c', 'TIMEFORMAT="cpu-seconds %U %S"; time npm test'],
    { cwd: clone, env },
    (line, at) => {
      if (firstFile === undefined && /^(TAP version|# Subtest)/.test(line)) firstFile = at
    },
  )
  const totals = /^# \{ total: (\d+), pass: (\d+)(?:, fail: (\d+))?.*\}$/m.exec(test.out)
  const cpu = /^cpu-seconds ([\d.]+) ([\d.]+)$/m.exec(test.out)
  const files = [...test.out.matchAll(/^(not )?ok \d+ - (\S+) # time=([\d.]+)ms/gm)].map((m) => ({
    file: m[2],
    ok: !m[1],
    ms: Number(m[3]),
  }))
  const own = files.reduce((sum, f) => sum + f.ms, 0)
  const result = {
    node: version,
    commit: head,
    npmCiMs: Math.round(ci.ms),
    npmTestMs: Math.round(test.ms),
    exit: test.code,
    beforeFirstFileMs: Math.round(firstFile ?? 0),
    cpuSeconds: cpu ? Number(cpu[1]) + Number(cpu[2]) : undefined,
    total: totals ? Number(totals[1]) : undefined,
    pass: totals ? Number(totals[2]) : undefined,
    fail: totals?.[3] ? Number(totals[3]) : 0,
    files: files.length,
    filesFailed: files.filter((f) => !f.ok).map((f) => f.file),
    ownMsSum: Math.round(own),
    slowest: [...files].sort((a, b) => b.ms - a.ms).slice(0, 8),
  }
  if (!totals) process.stdout.write(test.out.slice(-4000))
  if (values('--log')[0]) writeFileSync(`${values('--log')[0]}.${version}`, test.out)
  return result
}

/** The probes: what a test process pays before its tests. */
async function probe(node, clone, env, result) {
  // what a test process pays before its tests: spawned as tap spawns it (its node-args and
  // processinfo's import), the caches as the run left them (warm), median of 5
  const pkg = JSON.parse(readFileSync(join(clone, 'package.json'), 'utf8'))
  const processinfo = join(clone, 'node_modules', '@tapjs', 'processinfo', 'dist', 'esm', 'import.mjs')
  // scripts/tap.mjs starts test processes without processinfo (when it runs npm test)
  const withProcessinfo = !/scripts\/tap\.mjs/.test(pkg.scripts?.test ?? '')
  const nodeArgs = ['--enable-source-maps', ...(withProcessinfo ? [`--import=${processinfo}`] : []), ...(pkg.tap?.['node-arg'] ?? [])]
  // tap's own value of processinfo's exclusion, then package.json's tap.test-env over it
  const probeEnv = { ...env, TAP: '1', _TAPJS_PROCESSINFO_COVERAGE_: '0', _TAPJS_PROCESSINFO_EXCLUDE_: String(/(^(node|tapmock):|[\\/](\.tap|tap-snapshots)[\\/])/) }
  for (const entry of pkg.tap?.['test-env'] ?? []) probeEnv[entry.split('=')[0]] = entry.split('=').slice(1).join('=')
  const probes = {}
  for (const [name, text] of [['noop', NOOP], ['fake', FAKE]]) {
    const file = join(clone, 'test', `zz-test-time-${name}.test.ts`)
    writeFileSync(file, text)
    const walls = []
    const cpus = []
    for (let i = 0; i < 5; i++) {
      const r = await run('bash', ['-c', 'TIMEFORMAT="cpu-seconds %U %S"; time "$0" "$@"', node, ...nodeArgs, file], { cwd: clone, env: probeEnv })
      if (r.code !== 0) process.stdout.write(r.out.slice(-2000))
      const used = /^cpu-seconds ([\d.]+) ([\d.]+)$/m.exec(r.out)
      walls.push(r.ms)
      cpus.push(used ? (Number(used[1]) + Number(used[2])) * 1000 : Number.NaN)
    }
    rmSync(file)
    probes[name] = Math.round(median(walls))
    probes[`${name}Cpu`] = Math.round(median(cpus))
  }
  result.noopProcessMs = probes.noop
  result.fakeProcessMs = probes.fake
  result.noopProcessCpuMs = probes.noopCpu
  result.fakeProcessCpuMs = probes.fakeCpu
  for (const [label, name] of [['a no-op test process (warm)', 'noop'], ['a process that imports the fake, one answer', 'fake']]) {
    const each = `${probes[name]} ms wall, ${probes[`${name}Cpu`]} ms CPU`
    process.stdout.write(`   ${label.padEnd(44)} ${each}  × ${result.files} files = ${seconds(probes[`${name}Cpu`] * result.files)} CPU\n`)
  }
}

function report(r) {
  const p = (label, value) => process.stdout.write(`   ${label.padEnd(44)} ${value}\n`)
  p('npm test (wall)', `${seconds(r.npmTestMs)}  exit ${r.exit}${r.npmTestMs < 90000 ? '  (goal < 90 s: met)' : '  (goal < 90 s: MISSED)'}`)
  p('  before the first test file', `${seconds(r.beforeFirstFileMs)}  (npm, tap build, transform, tap's start)`)
  p('  test files', `${r.files}${r.filesFailed.length ? `, failed: ${r.filesFailed.join(' ')}` : ''}`)
  p('  assertions', `${r.total} total, ${r.pass} pass, ${r.fail} fail`)
  p('  CPU of the whole run', r.cpuSeconds === undefined ? '?' : `${r.cpuSeconds.toFixed(1)} s`)
  p("  the files' own time (tap's time=), summed", seconds(r.ownMsSum))
  p('  slowest files (own time)', '')
  for (const f of r.slowest) p(`    ${f.file}`, seconds(f.ms))
}

const results = []
let exit = 0
for (const node of nodes) {
  const r = await measure(node)
  results.push(r)
  if (r.failed || (r.exit !== undefined && r.exit !== 0)) exit = 1
}
if (values('--json')[0]) writeFileSync(values('--json')[0], `${JSON.stringify(results, null, 2)}\n`)
process.exit(exit)
