// `jobboard-kit serve` configured by environment variables as well as flags (for a container
// or a CI service, where flags are awkward): each flag's JOBBOARD_<FLAG>, precedence flags >
// env > defaults, a bad value refused at start naming the variable (exit 2, like a bad flag).
import t from 'tap'
import { captureIo, runToEnd, serve } from '../helpers/cli.js'
import { main } from '../../src/cli/main.js'
import { freePort } from '../helpers/socket.js'

const auth = (user = 'jobboard', password = 'jobboard') => ({ authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}` })


t.test('takes the scenario, seed, page size, credentials and rate-limit window from JOBBOARD_* variables', async (t) => {
  const env = { JOBBOARD_SCENARIO: 'default', JOBBOARD_SEED: '7', JOBBOARD_PAGE_SIZE: '5', JOBBOARD_USERNAME: 'ci', JOBBOARD_PASSWORD: 'ci-secret', JOBBOARD_RATE_LIMIT_WINDOW: '0', JOBBOARD_CLOCK: 'virtual' }
  const { url } = await serve(t, [], env)
  const page = await fetch(`${url}/api/v1/applications/list`, { headers: auth('ci', 'ci-secret') })
  t.equal(page.status, 200)
  t.equal(((await page.json()) as { data: unknown[] }).data.length, 5, 'JOBBOARD_PAGE_SIZE')
  t.equal((await fetch(`${url}/api/v1/applications/list`, { headers: auth('ci', 'ci-secret') })).status, 200, 'JOBBOARD_RATE_LIMIT_WINDOW=0: a repeat is answered')
  t.equal((await fetch(`${url}/api/v1/applications/list`, { headers: auth() })).status, 401, "the scenario's credentials are replaced")
  const seeded = await serve(t, ['--seed', '7', '--clock', 'virtual', '--rate-limit-window', '0'])
  // the same records, but for the origin in their links
  const first = async (origin: string, headers: Record<string, string>) =>
    (await (await fetch(`${origin}/api/v1/candidates/details/1`, { headers })).text()).replaceAll(origin, 'ORIGIN')
  t.equal(await first(url, auth('ci', 'ci-secret')), await first(seeded.url, auth()), 'JOBBOARD_SEED=7 builds the board --seed 7 builds')
})

t.test('listens on JOBBOARD_HOST and JOBBOARD_PORT', async (t) => {
  const port = await freePort()
  const captured = captureIo({ JOBBOARD_HOST: '127.0.0.1', JOBBOARD_PORT: String(port), JOBBOARD_SCENARIO: 'empty' })
  const ended = main(['node', 'jobboard-kit', 'serve'], captured.io)
  await new Promise<void>((resolve) => {
    const ready = () => captured.stdout().includes('listening') && resolve()
    captured.onStdout(ready)
    ready()
  })
  t.match(captured.stdout(), `jobboard-kit listening on http://127.0.0.1:${port}\n`)
  captured.signal('SIGTERM')
  t.equal(await ended, 0)
})

t.test('a flag wins over its variable, and the variable over the default', async (t) => {
  const env = { JOBBOARD_PAGE_SIZE: '5', JOBBOARD_SCENARIO: 'default', JOBBOARD_RATE_LIMIT_WINDOW: '0' }
  const size = async (args: string[], given: Record<string, string>) => {
    const { url } = await serve(t, args, given)
    return (((await (await fetch(`${url}/api/v1/applications/list`, { headers: auth() })).json()) as { data: unknown[] }).data.length)
  }
  t.equal(await size(['--page-size', '7'], env), 7, '--page-size 7 over JOBBOARD_PAGE_SIZE=5')
  t.equal(await size([], env), 5, 'JOBBOARD_PAGE_SIZE=5 over the default')
  t.equal(await size([], { JOBBOARD_PAGE_SIZE: '' }), 25, "an empty variable is unset: the scenario's page size")
  // the test helper gives --port 0: JOBBOARD_PORT's bad value is never read
  t.equal(await size([], { JOBBOARD_PORT: 'not-a-port' }), 25, 'a variable a flag overrides is not read')
})

t.test('refuses a bad value at start with exit 2, naming the variable and not the value', async (t) => {
  const cases: Array<[Record<string, string>, RegExp]> = [
    [{ JOBBOARD_PORT: 'eighty' }, /JOBBOARD_PORT is invalid: expected a whole number/],
    [{ JOBBOARD_PORT: '70000' }, /JOBBOARD_PORT is invalid: it must be <= 65535/],
    [{ JOBBOARD_SEED: '-1' }, /JOBBOARD_SEED/],
    [{ JOBBOARD_CLOCK: 'sundial' }, /JOBBOARD_CLOCK is invalid: allowed values are real, virtual/],
    [{ JOBBOARD_CONTROL: 'maybe' }, /JOBBOARD_CONTROL is invalid: expected on or off/],
    [{ JOBBOARD_SCENARIO: 'nope' }, /JOBBOARD_SCENARIO: there is no scenario "nope"/],
    [{ JOBBOARD_USERNAME: 'ci:admin' }, /JOBBOARD_USERNAME/],
    [{ JOBBOARD_CONTROL_TOKEN: 'hunter2' }, /control token \(JOBBOARD_CONTROL_TOKEN\) is too short/],
  ]
  for (const [env, said] of cases) {
    const run = await runToEnd(['serve'], env)
    const name = Object.keys(env)[0] as string
    t.equal(run.code, 2, `${name} exits 2`)
    t.match(run.stderr, said, `${name} is named`)
    t.match(run.stderr, /^jobboard-kit: [^\n]+; see jobboard-kit serve --help\n$/, 'in one line, as a bad flag is')
    if (name === 'JOBBOARD_CONTROL_TOKEN') t.notOk(run.stderr.includes(env[name] as string), 'and the secret is not repeated')
  }
})

t.test('--help names each flag\'s variable', async (t) => {
  // commander wraps the help to the width: read it as one line
  const stdout = (await runToEnd(['serve', '--help'])).stdout.replace(/\s+/g, ' ')
  for (const variable of ['JOBBOARD_SCENARIO', 'JOBBOARD_SEED', 'JOBBOARD_PORT', 'JOBBOARD_HOST', 'JOBBOARD_CONTROL_TOKEN', 'JOBBOARD_LAST_PAGE_NEXT_PAGE']) {
    t.match(stdout, `[env ${variable}]`, variable)
  }
})
