// docs/ci.md, "One fake for a parallel test run": each recipe's files written out and its
// command run against one fake started with the recipe's `serve` flags (in process), where
// its tool is on the machine (a skip names the tool and how to get it where it is not;
// pytest-xdist, which .ci/run installs, is required there). After each run: at least two
// accounts were used, and no account's journal holds a 429 or a 5xx.
import { spawn, spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import t, { type Test } from 'tap'
import type { Json } from './helpers/board.js'
import { ROOT, serve } from './helpers/cli.js'
import { onPath, unlessMissing } from './helpers/tools.js'

const markdown = readFileSync(join(ROOT, 'docs', 'ci.md'), 'utf8')
const section = markdown.slice(markdown.indexOf('## One fake for a parallel test run'))
/** The recipe files: a block whose first line is `# file: PATH` or `// file: PATH`. */
const files = [...section.matchAll(/```[a-z]+\n(?:#|\/\/) file: (\S+)\n([\s\S]*?)```/g)].map(([, path, text]) => ({ path: path as string, text: text as string }))
/** The commands: an sh block whose first line is `# run: NAME`. */
const commands = new Map([...section.matchAll(/```sh\n# run: ([a-z-]+)\n([\s\S]*?)```/g)].map(([, name, text]) => [name as string, (text as string).trim()]))

const JUNIT = '/usr/share/java/junit-platform-console-standalone.jar'

/** A python3 that has pytest-xdist: the one on PATH, or Debian's (where .ci/run's apt-get puts it). */
function pythonWithXdist(): string | undefined {
  for (const python of ['python3', '/usr/bin/python3']) {
    if (spawnSync(python, ['-c', 'import xdist, pytest'], { stdio: 'ignore' }).status === 0) return python
  }
  return undefined
}

/** Whether this Node's test runner tells a file its worker (NODE_TEST_WORKER_ID). */
function nodeTestWorkerIds(): boolean {
  const dir = mkdtempSync(join(tmpdir(), 'jobboard-kit-node-test-'))
  try {
    writeFileSync(join(dir, 'probe.test.mjs'), "import { test } from 'node:test'\ntest('x', () => { if (!process.env.NODE_TEST_WORKER_ID) throw new Error('none') })\n")
    return spawnSync(process.execPath, ['--test', join(dir, 'probe.test.mjs')], { stdio: 'ignore' }).status === 0
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** The recipe's files in a fresh folder (node's test file copied four times, for four workers). */
function workspace(t: Test): string {
  const dir = mkdtempSync(join(tmpdir(), 'jobboard-kit-ci-parallel-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  for (const { path, text } of files) {
    const copies = path.endsWith('/sync.test.mjs') ? ['a', 'b', 'c', 'd'].map((n) => path.replace('sync.test.mjs', `${n}.test.mjs`)) : [path]
    for (const copy of copies) {
      mkdirSync(join(dir, dirname(copy)), { recursive: true })
      writeFileSync(join(dir, copy), text)
    }
  }
  // the Node recipes import tap and run npx from the project's own packages
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node', 'node_modules'))
  writeFileSync(join(dir, 'node', 'package.json'), '{"type": "module"}\n')
  return dir
}

/** The fake the recipes share: the `serve` of the `fake` block, in process, on a free port. */
async function fake(t: Test) {
  const line = commands.get('fake')?.split('\n').find((l) => l.includes(' serve ')) ?? ''
  const flags = line.replace(/^.*? serve /, '').replace(/\s*&\s*$/, '').replace(/--port \d+/, '').split(/\s+/).filter(Boolean)
  const exported = Object.fromEntries([...(commands.get('fake') ?? '').matchAll(/([A-Z_]+)=(\S+)/g)].map(([, k, v]) => [k as string, v as string]))
  const served = await serve(t, flags)
  return { url: served.url, env: { ...exported, JOBBOARD_URL: served.url } as Record<string, string> }
}

/** Runs the recipe's command in the workspace, then holds the fake's journals to what a parallel run leaves. */
async function runRecipe(t: Test, name: string, extraEnv: Record<string, string> = {}, pathFirst?: string) {
  const { url, env } = await fake(t)
  const dir = workspace(t)
  const command = commands.get(name) as string
  t.ok(command, `docs/ci.md has the ${name} command`)
  const PATH = [pathFirst, process.env.PATH].filter(Boolean).join(':')
  // spawned, not spawnSync: the fake answers from this process, whose event loop must keep turning
  const child = spawn('bash', ['-eo', 'pipefail', '-c', command], {
    cwd: dir,
    env: { PATH, HOME: dir, GOCACHE: join(dir, '.go-cache'), GOPATH: join(dir, '.go'), GOFLAGS: '-mod=mod', ...env, ...extraEnv },
    timeout: 300_000,
  })
  const run = { stdout: '', stderr: '', status: null as number | null }
  child.stdout.on('data', (chunk: Buffer) => (run.stdout += chunk))
  child.stderr.on('data', (chunk: Buffer) => (run.stderr += chunk))
  run.status = await new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)))
  t.equal(run.status, 0, `${name}: ${command}`, { stdout: run.stdout.slice(-3000), stderr: run.stderr.slice(-3000) })
  const accounts = (await (await fetch(`${url}/__mock/accounts`)).json()) as Json
  const used: string[] = []
  for (const { name: account } of accounts.data as Array<{ name: string }>) {
    const journal = ((await (await fetch(`${url}/__mock/accounts/${account}/requests`)).json()) as Json).data as Array<{ status: number; user: string }>
    if (journal.length > 0) used.push(account)
    t.same(journal.filter((entry) => entry.status === 429 || entry.status >= 500), [], `${account}: no 429 and no 5xx`)
    t.same([...new Set(journal.map((entry) => entry.user))].filter((user) => user !== account), [], `${account}: only its own worker's requests`)
  }
  t.ok(used.length >= 2, `the workers used ${used.length} accounts (${used.join(', ')})`)
}

t.test('docs/ci.md has a file and a command for every parallel recipe', async (t) => {
  t.same([...commands.keys()].sort(), ['fake', 'go', 'junit', 'node-test', 'python', 'tap'])
  t.same(files.map((f) => f.path.split('/')[0]).filter((v, i, all) => all.indexOf(v) === i), ['python', 'node', 'go', 'java'])
})

const python = pythonWithXdist()
const noXdist = unlessMissing(python ? undefined : 'pytest-xdist is not installed for python3 (apt-get install -y python3-pytest-xdist; .ci/run installs it)')

t.test('pytest-xdist: a worker per account, by PYTEST_XDIST_WORKER', { skip: noXdist }, async (t) => {
  // the recipe says python3: the one with xdist comes first on PATH
  const bin = mkdtempSync(join(tmpdir(), 'jobboard-kit-python-'))
  t.teardown(() => rmSync(bin, { recursive: true, force: true }))
  symlinkSync(onPath(python as string) ?? (python as string), join(bin, 'python3'))
  await runRecipe(t, 'python', {}, bin)
})

t.test('tap: a job slot per account, by TAP_JOB_ID', async (t) => {
  await runRecipe(t, 'tap')
})

const noWorkerIds = nodeTestWorkerIds() ? false : `node:test on Node ${process.versions.node} sets no NODE_TEST_WORKER_ID (newer Node versions do): the node:test recipe is not run here`

t.test('node:test: a worker per account, by NODE_TEST_WORKER_ID', { skip: noWorkerIds }, async (t) => {
  await runRecipe(t, 'node-test')
})

const noGo = onPath('go') ? false : 'go is not on PATH (apt-get install -y golang-go): the Go recipe is not run here'

t.test('Go: t.Parallel() tests borrowing accounts from a pool', { skip: noGo }, async (t) => {
  await runRecipe(t, 'go')
})

const noJunit = onPath('javac') && existsSync(JUNIT) ? false : `needs javac and ${JUNIT} (apt-get install -y default-jdk-headless junit5): the JUnit recipe is not run here`

t.test('JUnit 5: parallel execution, accounts from a queue', { skip: noJunit }, async (t) => {
  await runRecipe(t, 'junit', { JUNIT_JARS: JUNIT, JUNIT_CONSOLE: JUNIT })
})
