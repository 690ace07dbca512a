// The Containerfile: built (npm run build:container) from the local executable alone, FROM
// scratch with its shared libraries, non-root, exposing 4010 with a HEALTHCHECK; and, where
// the machine lets the builder run containers, run: healthy, serving the API, configured by
// JOBBOARD_* variables, refusing a bad one with exit 2, stopping on SIGTERM within a second
// (with podman: as it runs containers by default, else with runc and lowered rlimits);
// and `proxy --to` a server on the host (the second server, on the host's network): its
// ready line printed, its HEALTHCHECK passing without a request upstream, a request through
// it answered as the upstream answers it.
import { execFile, spawn } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { promisify } from 'node:util'
import t from 'tap'
import { ROOT } from './helpers/cli.js'
import { startOtherBoard } from './helpers/other-board.js'
import { onPath, unlessMissing } from './helpers/tools.js'
import { freePort } from './helpers/socket.js'
import { tapUpstream } from './helpers/upstream-tap.js'

const run = promisify(execFile)
const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version
const IMAGE = `localhost/jobboard-kit-test:${process.pid}`
const auth = { authorization: `Basic ${Buffer.from('jobboard:jobboard').toString('base64')}` }

/**
 * How this machine lets the builder run the image, tried in turn: as it runs one by
 * default; else, for podman, with runc and rlimits no higher than the sandbox's (a
 * machine whose kernel refuses crun's cgroups or raising rlimits, as the development
 * one does). Answers the global and run flags that worked, or why none did.
 */
async function runnable(tool: string): Promise<{ ways?: [string[], string[]]; refusal?: string }> {
  const tries: Array<[string[], string[]]> = [[[], []]]
  if (tool === 'podman' && onPath('runc')) tries.push([['--runtime', 'runc'], ['--ulimit', 'nofile=1024:1024', '--ulimit', 'nproc=1024:1024']])
  let refusal = ''
  for (const [global, local] of tries) {
    try {
      const { stdout } = await run(tool, [...global, 'run', '--rm', ...local, IMAGE, '--version'], { timeout: 60_000 })
      if (stdout.trim() === VERSION) return { ways: [global, local] }
      refusal = `the image answered --version with ${stdout.trim()}`
    } catch (error) {
      refusal = String((error as { stderr?: string }).stderr ?? error).split('\n').filter((line) => /Error/.test(line)).pop() ?? String(error)
    }
  }
  return { refusal: `${tool} cannot run a container here: ${refusal}` }
}

/** The builder that works here: podman, else docker (a client without its daemon does not count). */
async function builder(): Promise<string | undefined> {
  for (const tool of ['podman', 'docker']) {
    if (!onPath(tool)) continue
    try {
      await run(tool, ['info'], { timeout: 30_000 })
      return tool
    } catch {
      // present but not working (docker without its daemon)
    }
  }
  return undefined
}

const tool = await builder()
const skip =
  unlessMissing(existsSync(join(ROOT, 'dist', 'exe', 'jobboard-kit')) ? undefined : 'dist/exe/jobboard-kit was not built (npm run build:exe; .ci/run does)') ||
  unlessMissing(tool ? undefined : 'neither podman nor docker works here (apt-get install -y podman)')

t.test(`builds the image from the local executable alone: FROM scratch, non-root, EXPOSE 4010, a HEALTHCHECK (${tool ?? 'no builder'})`, { skip }, async (t) => {
  const built = await run(process.execPath, [join(ROOT, 'scripts', 'build-container.mjs')], { cwd: ROOT, env: { ...process.env, JOBBOARD_KIT_IMAGE: IMAGE }, timeout: 300_000 })
  t.equal(built.stdout.trim().split('\n').pop(), IMAGE, 'the image name is the last line')
  t.teardown(() => run(tool as string, ['rmi', '--force', IMAGE]).catch(() => {}))
  const [inspected] = JSON.parse((await run(tool as string, ['image', 'inspect', IMAGE])).stdout)
  const config = inspected.Config
  t.equal(config.User, '10001:10001', 'a non-root user')
  t.same(Object.keys(config.ExposedPorts), ['4010/tcp'])
  t.same(config.Entrypoint, ['/jobboard-kit'])
  t.same(config.Cmd, ['serve', '--host', '0.0.0.0'])
  t.match(config.Env, ['PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin', 'JOBBOARD_HOST=0.0.0.0', 'JOBBOARD_PORT=4010', 'JOBBOARD_CONTROL=off'])
  const health = inspected.Healthcheck ?? config.Healthcheck
  t.same(health?.Test, ['CMD', '/jobboard-kit', 'health'], 'the health check asks the executable itself')
  // one layer: the executable and its libraries, nothing from a base image
  t.equal(inspected.RootFS.Layers.length, 1)

  // a container run: not every machine lets the builder run one as it would by default
  const { ways, refusal } = await runnable(tool as string)
  // `podman --runtime runc run …`: the global flags, then the run's
  const [global, local] = ways ?? [[], []]
  const runArgs = (...args: string[]) => [...global, 'run', ...local, ...args]

  const how = [...global, 'run', ...local].join(' ')
  /** Whether the container's own HEALTHCHECK passes within 30 s, run as the builder runs it (docker on its interval). */
  const healthy = async (name: string) => {
    const check = () =>
      tool === 'podman'
        ? run(tool, [...global, 'healthcheck', 'run', name]).then(() => true, () => false)
        : run(tool as string, ['inspect', '--format', '{{.State.Health.Status}}', name]).then(({ stdout }) => stdout.trim() === 'healthy', () => false)
    for (let tries = 0; tries < 60; tries++) {
      if (await check()) return true
      await new Promise((resolve) => setTimeout(resolve, 500))
    }
    return false
  }
  t.test(`runs (${tool} ${how}): healthy, serving the API on the port JOBBOARD_* gives, stopping on SIGTERM within a second`, { skip: refusal ?? false }, async (t) => {
    const port = await freePort()
    const name = `jobboard-kit-test-${process.pid}`
    await run(tool as string, runArgs('--detach', '--name', name, '--publish', `127.0.0.1:${port}:4010`, '--env', 'JOBBOARD_SCENARIO=empty', '--env', 'JOBBOARD_RATE_LIMIT_WINDOW=0', IMAGE))
    t.teardown(() => run(tool as string, [...global, 'rm', '--force', name]).catch(() => {}))
    t.ok(await healthy(name), 'its HEALTHCHECK passes')
    const metrics = await fetch(`http://127.0.0.1:${port}/api/v1/metrics/list`, { headers: auth })
    t.equal(metrics.status, 200)
    t.equal(((await fetch(`http://127.0.0.1:${port}/api/v1/candidates/list`, { headers: auth }).then((r) => r.json())) as { total: number }).total, 0, 'JOBBOARD_SCENARIO=empty')
    const started = performance.now()
    await run(tool as string, [...global, 'stop', '--time', '5', name])
    const ms = performance.now() - started
    const [state] = JSON.parse((await run(tool as string, [...global, 'inspect', name])).stdout)
    t.equal(state.State.ExitCode, 0, 'it stopped itself on SIGTERM (not killed)')
    t.ok(ms < 1500, `stopped in ${Math.round(ms)} ms`)
  })

  t.test("runs `proxy --to` a server on the host: the ready line, its HEALTHCHECK passing with no request upstream, and a request through it gets the upstream's answer", { skip: refusal ?? false }, async (t) => {
    // the second server (test/helpers/other-board/) behind a tap that counts what reaches it, on the host's loopback
    const board = await startOtherBoard({ style: 'a', username: 'u', password: 'p', rateLimitWindow: 0 })
    t.teardown(() => board.close())
    const upstream = await tapUpstream(board.url)
    t.teardown(() => upstream.close())
    const port = await freePort()
    const name = `jobboard-kit-test-proxy-${process.pid}`
    // the host's network: the container's loopback is the host's, where the upstream listens;
    // the port as JOBBOARD_PORT, which `jobboard-kit health` reads too
    await run(tool as string, runArgs('--detach', '--name', name, '--network', 'host', '--env', `JOBBOARD_PORT=${port}`, IMAGE, 'proxy', '--to', upstream.url, '--host', '127.0.0.1'))
    t.teardown(() => run(tool as string, [...global, 'rm', '--force', name]).catch(() => {}))
    const ready = `jobboard-kit listening on http://127.0.0.1:${port}`
    let logs = ''
    for (let tries = 0; tries < 60 && !logs.includes(ready); tries++) {
      logs = (await run(tool as string, [...global, 'logs', name])).stdout
      if (!logs.includes(ready)) await new Promise((resolve) => setTimeout(resolve, 500))
    }
    t.equal(logs.split('\n')[0], ready, 'the ready line, on stdout')
    t.ok(await healthy(name), 'its HEALTHCHECK passes: the proxy answers it itself')
    t.ok(await healthy(name), 'and again')
    t.same(upstream.requests, [], 'no health check reached the upstream')
    const basic = { authorization: `Basic ${Buffer.from('u:p').toString('base64')}` }
    const through = await fetch(`http://127.0.0.1:${port}/api/v1/metrics/list`, { headers: basic })
    const body = await through.text()
    t.same(upstream.requests.map((r) => r.line), ['GET /api/v1/metrics/list'], "the client's request went upstream, once, and nothing else did")
    const direct = await fetch(`${board.url}/api/v1/metrics/list`, { headers: basic })
    t.equal(through.status, direct.status, "the upstream's status")
    t.equal(body, await direct.text(), "the upstream's answer, as it came")
    t.equal(through.headers.get('content-type'), direct.headers.get('content-type'), "the upstream's Content-Type")
    t.ok(await healthy(name), 'its HEALTHCHECK passes after the request too')
    t.same(upstream.requests.map((r) => r.line), ['GET /api/v1/metrics/list'], "the upstream counts the client's one request alone")
  })

  t.test('refuses a bad JOBBOARD_* value at start with exit 2, naming the variable', { skip: refusal ?? false }, async (t) => {
    const child = spawn(tool as string, runArgs('--rm', '--env', 'JOBBOARD_PORT=eighty', IMAGE))
    let stderr = ''
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk))
    const code = await new Promise((resolve) => child.on('close', resolve))
    t.equal(code, 2)
    t.match(stderr, /JOBBOARD_PORT is invalid: expected a whole number/)
  })
})

