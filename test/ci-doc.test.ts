// docs/ci.md: each recipe's commands, run here in their order — not by a YAML runner. The
// service is the executable started with the recipe's variables and waited on with its
// health check; then every `run:` step (GitHub) or `script:` line (GitLab) runs with bash,
// the job's variables set and $JOBBOARD_URL pointing at that service. ./ci/sync-tests.sh
// (the team's own tests) is a stand-in running the Python sync client; a step named
// `install …` gets the executable built here instead of the release's.
import { spawn, spawnSync } from 'node:child_process'
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import t, { type Test } from 'tap'
import { parse } from 'yaml'
import { ROOT } from './helpers/cli.js'
import { freePort } from './helpers/socket.js'
import { onPath, unlessMissing } from './helpers/tools.js'

const EXE = join(ROOT, 'dist', 'exe', 'jobboard-kit')
const READY = /listening on (http:\/\/\S+)/
const markdown = readFileSync(join(ROOT, 'docs', 'ci.md'), 'utf8')
const recipes = new Map([...markdown.matchAll(/```yaml\n# recipe: ([a-z-]+)\n([\s\S]*?)```/g)].map(([, name, text]) => [name as string, parse(text as string)]))

const skip =
  unlessMissing(existsSync(EXE) ? undefined : 'dist/exe/jobboard-kit was not built (npm run build:exe; .ci/run does)') ||
  unlessMissing(onPath('curl') ? undefined : 'curl is not on PATH (apt-get install -y curl)') ||
  unlessMissing(onPath('python3') ? undefined : 'python3 is not on PATH (apt-get install -y python3)')

type Env = Record<string, string>
interface Step {
  name?: string
  uses?: string
  run?: string
  env?: Env
}

/** A folder for the job, with the stand-in for the team's own tests (by default the sync client that also meets a 429). */
function workspace(t: Test, tests = `python3 ${JSON.stringify(join(ROOT, 'test', 'fixtures', 'sync_client.py'))} "$1" jobboard jobboard`): string {
  const dir = mkdtempSync(join(tmpdir(), 'jobboard-kit-ci-doc-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  mkdirSync(join(dir, 'ci'))
  writeFileSync(join(dir, 'ci', 'sync-tests.sh'), `#!/bin/sh\nexec ${tests}\n`, { mode: 0o755 })
  return dir
}

/** The service: the executable's serve with the recipe's variables, on a free loopback port (a flag wins over the image's JOBBOARD_HOST/PORT). */
async function service(t: Test, variables: Env): Promise<string> {
  const child = spawn(EXE, ['serve', '--host', '127.0.0.1', '--port', '0'], { env: { PATH: process.env.PATH ?? '', ...variables } })
  t.teardown(() => {
    if (child.exitCode === null) child.kill('SIGTERM')
  })
  let out = ''
  let err = ''
  child.stderr.on('data', (chunk: Buffer) => (err += chunk))
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk
      const match = READY.exec(out)
      if (match) resolve(match[1] as string)
    })
    child.on('exit', (code) => reject(new Error(`the service exited ${code}: ${err}`)))
  })
}

/** Waits as the CI would, with the recipe's health command (`/jobboard-kit health`), asked of the service's URL. */
async function healthy(t: Test, command: string, url: string, retries: number): Promise<void> {
  const [program, ...args] = command.split(' ')
  t.equal(program, '/jobboard-kit', 'the health check is the image\'s executable')
  for (let tries = 0; tries <= retries; tries++) {
    if (spawnSync(EXE, [...args, '--url', `${url}/__mock/health`]).status === 0) return
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
  t.fail(`the service was not healthy after ${retries} tries`)
}

/** Runs each command with bash in `cwd`, in order, stopping at the first that fails. */
function runAll(t: Test, commands: Array<{ name: string; command: string; env: Env }>, cwd: string): void {
  for (const { name, command, env } of commands) {
    const run = spawnSync('bash', ['-eo', 'pipefail', '-c', command], { cwd, env: { PATH: process.env.PATH ?? '', HOME: cwd, ...env }, encoding: 'utf8', timeout: 120_000 })
    t.equal(run.status, 0, `${name}: ${command.slice(0, 100)}`, { stdout: run.stdout.slice(-2000), stderr: run.stderr.slice(-2000) })
    if (run.status !== 0) return
  }
}

t.test('docs/ci.md has the GitHub and GitLab service recipes, the nightly contract job and the judged client', async (t) => {
  t.same([...recipes.keys()].sort(), ['github-nightly-contract', 'github-service', 'github-verdict', 'gitlab-service'])
})

t.test('the GitHub Actions service recipe: health-waited, reset through the control API, synced by a Python client', { skip }, async (t) => {
  const job = recipes.get('github-service').jobs.sync
  const definition = job.services.jobboard
  const url = await service(t, definition.env)
  const health = /--health-cmd "([^"]+)"/.exec(definition.options)?.[1] as string
  await healthy(t, health, url, Number(/--health-retries (\d+)/.exec(definition.options)?.[1]))
  const env = { ...job.env, JOBBOARD_URL: url }
  const steps = (job.steps as Step[]).filter((step) => step.run !== undefined)
  t.same(steps.map((s) => s.name), ['the fake is up', 'a known board for this run', 'sync tests'])
  runAll(t, steps.map((s) => ({ name: s.name as string, command: s.run as string, env: { ...env, ...s.env } })), workspace(t))
})

t.test('the GitLab CI service recipe: waited on, then synced by a Python client', { skip }, async (t) => {
  const job = recipes.get('gitlab-service').sync
  const [definition] = job.services
  t.equal(definition.alias, 'jobboard')
  const url = await service(t, definition.variables)
  const env = { ...job.variables, ...definition.variables, JOBBOARD_URL: url }
  runAll(t, (job.script as string[]).map((command, i) => ({ name: `script line ${i + 1}`, command, env })), workspace(t))
})

t.test('the nightly contract job checks a deployment, writing JUnit, a profile and a ledger', { skip }, async (t) => {
  const steps = recipes.get('github-nightly-contract').jobs.contract.steps as Step[]
  const url = await service(t, {})
  const secrets: Env = { STAGING_URL: url, STAGING_USERNAME: 'jobboard', STAGING_PASSWORD: 'jobboard' }
  const cwd = workspace(t)
  const commands = []
  for (const step of steps.filter((s) => s.run !== undefined)) {
    if (step.name?.startsWith('install')) {
      // the release's executable, here the one built in this checkout
      t.match(step.run, /curl .*jobboard-kit.* && chmod \+x jobboard-kit/)
      copyFileSync(EXE, join(cwd, 'jobboard-kit'))
      continue
    }
    const env = Object.fromEntries(
      Object.entries(step.env ?? {}).map(([key, value]) => [key, value.replace(/\$\{\{ secrets\.([A-Z_]+) \}\}/g, (_, name: string) => secrets[name] ?? `<no secret ${name}>`)]),
    )
    commands.push({ name: step.name as string, command: step.run as string, env })
  }
  t.same(commands.map((c) => c.name), ['check staging'])
  runAll(t, commands, cwd)
  for (const file of ['contract.xml', 'staging-profile.json', 'contract-ledger.json']) t.ok(existsSync(join(cwd, file)), `wrote ${file}`)
  t.match(readFileSync(join(cwd, 'contract.xml'), 'utf8'), /<testsuites [^>]*failures="0"/)
})

/** The judged-client recipe in a folder whose tests are `tests`: its steps' exit statuses, on a free port. */
async function judgedJob(t: Test, tests: string): Promise<{ cwd: string; statuses: Array<number | null> }> {
  const job = recipes.get('github-verdict').jobs.judged
  const cwd = workspace(t, tests)
  const port = await freePort()
  const env: Env = { ...job.env, JOBBOARD_PORT: String(port), JOBBOARD_URL: `http://127.0.0.1:${port}` }
  const statuses: Array<number | null> = []
  for (const step of (job.steps as Step[]).filter((s) => s.run !== undefined)) {
    if (step.name?.startsWith('install')) {
      t.match(step.run, /curl .*jobboard-kit.* && chmod \+x jobboard-kit/)
      copyFileSync(EXE, join(cwd, 'jobboard-kit'))
      continue
    }
    const run = spawnSync('bash', ['-eo', 'pipefail', '-c', step.run as string], { cwd, env: { PATH: process.env.PATH ?? '', HOME: cwd, ...env }, encoding: 'utf8', timeout: 120_000 })
    statuses.push(run.status)
  }
  return { cwd, statuses }
}

const client = (mistake = '') => `python3 ${JSON.stringify(join(ROOT, 'examples', 'python', 'sync.py'))} --url "$1"${mistake}`

t.test('the judged-client recipe passes a client that keeps the rules and writes the verdict as JUnit', { skip }, async (t) => {
  const { cwd, statuses } = await judgedJob(t, client())
  t.same(statuses, [0], 'the step passes: the fake stopped with exit 0')
  t.match(readFileSync(join(cwd, 'verdict.xml'), 'utf8'), /<testsuites[^>]*failures="0"/)
})

t.test('the judged-client recipe fails the job when the client sends a request without credentials', { skip }, async (t) => {
  const { cwd, statuses } = await judgedJob(t, client(' --mistake no-credentials'))
  t.same(statuses, [1], "the step fails with the fake's exit code 1")
  t.match(readFileSync(join(cwd, 'verdict.xml'), 'utf8'), /credentials/)
})
