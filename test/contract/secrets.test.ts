// No secret in any output, whatever the deployment sends back: a staging whose 5xx page
// echoes the request (as framework debug pages do), whose JSON errors quote the headers,
// whose links carry the credentials, and a host that cannot be reached. Every output of
// each run — stdout, stderr, the JUnit file, the JSON report, the ledger and the profile —
// is searched for every form the password travels in.
import { readFileSync, existsSync } from 'node:fs'
import { createServer } from 'node:net'
import { join } from 'node:path'
import t, { type Test } from 'tap'
import { contractAction } from '../../src/cli/contract.js'
import type { CommandIo } from '../../src/cli/io.js'
import { redactor, REDACTED } from '../../src/contract/redact.js'
import { board, contract, jsonReply, json, on, steppingClock, type Exchange, type Reply } from './helpers.js'

const USER = 'ci-robot'
// quotes, an ampersand and angle brackets: escaped differently by JSON, HTML, XML and URLs
const PASSWORD = 'Hunter2-"quoted"&<tag>'
const PROXY_PASSWORD = 'PROXY-SECRET-77'
const COOKIE = 'SESSION-SECRET-42'
const pair = `${USER}:${PASSWORD}`
const FORMS: Record<string, string> = {
  plain: PASSWORD,
  'JSON-escaped': JSON.stringify(PASSWORD).slice(1, -1),
  'HTML-escaped': PASSWORD.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;'),
  'URL-encoded': encodeURIComponent(PASSWORD),
  'base64 of user:pass': Buffer.from(pair).toString('base64'),
  'the cookie value': COOKIE,
  'the proxy password': PROXY_PASSWORD,
  // a cut quote must not keep the start of it either
  'the start of the password': 'Hunter2-',
}

/** What a debug page shows of the request: the headers, the decoded credentials, the URL. */
function debugPage(x: Exchange): string {
  const authorization = String(x.headers.authorization ?? '')
  const decoded = Buffer.from(authorization.replace(/^Basic /, ''), 'base64').toString('utf8')
  const password = decoded.slice(decoded.indexOf(':') + 1)
  // the password straddles the 300 characters a report quotes
  const lead = `<html><head><title>500 Internal Server Error</title></head><body><h1>Traceback</h1><p>${'.'.repeat(200)}`
  return `${lead.padEnd(290, '.')} pass=${password} <pre>Authorization: ${authorization}
Cookie: session=${COOKIE}
Proxy-Authorization: Basic ${Buffer.from(`proxy-user:${PROXY_PASSWORD}`).toString('base64')}
credentials: ${decoded}
json: ${JSON.stringify({ password })}
url: http://${USER}:${encodeURIComponent(password)}@staging.example${x.url}</pre></body></html>`
}

const echo = (x: Exchange): Reply => ({ status: 500, headers: { 'content-type': 'text/html', 'set-cookie': `session=${COOKIE}` }, body: Buffer.from(debugPage(x)) })

function outputs(dir: string, text: string): Record<string, string> {
  const files: Record<string, string> = { 'stdout and stderr': text }
  for (const name of ['contract.xml', 'report.json', 'ledger.json', 'profile.json']) {
    const path = join(dir, name)
    if (existsSync(path)) files[name] = readFileSync(path, 'utf8')
  }
  return files
}

function noSecret(t: Test, files: Record<string, string>, expected: string[]): void {
  t.same(Object.keys(files).sort(), expected.sort(), `the outputs are ${expected.join(', ')}`)
  for (const [name, text] of Object.entries(files)) {
    for (const [form, secret] of Object.entries(FORMS)) t.notOk(text.includes(secret), `${name} holds no ${form}`)
    // a Basic token is a credential when it decodes to user:pass
    const tokens = [...text.matchAll(/Basic ([A-Za-z0-9+/]{4,}={0,2})/g)].filter((m) => Buffer.from(m[1] as string, 'base64').toString('latin1').includes(':'))
    t.same(tokens.map((m) => m[0]), [], `${name} holds no Basic credentials`)
  }
}

const flagsIn = (dir: string) => ({
  username: USER,
  password: PASSWORD,
  junit: join(dir, 'contract.xml'),
  report: join(dir, 'report.json'),
  ledger: join(dir, 'ledger.json'),
  writeProfile: join(dir, 'profile.json'),
})

const ALL = ['stdout and stderr', 'contract.xml', 'report.json', 'ledger.json', 'profile.json']

t.test('the redaction hides every form of the password, header values and URL credentials', async (t) => {
  const redact = redactor({ username: USER, password: PASSWORD, proxies: [`http://proxy-user:${PROXY_PASSWORD}@proxy:3128`] })
  const text = debugPage({ method: 'GET', url: '/api/v1/x', headers: { authorization: `Basic ${Buffer.from(pair).toString('base64')}` }, body: Buffer.alloc(0) })
  const out = redact.text(text)
  for (const [form, secret] of Object.entries(FORMS)) t.notOk(out.includes(secret), `no ${form}`)
  t.match(out, `Authorization: ${REDACTED}`, 'the header is named, its value hidden')
  t.match(out, `url: http://${REDACTED}@staging.example/api/v1/x`, 'URL credentials are hidden, the rest of the URL kept')
  t.equal(redact.text('Basic authentication, Basic realm="board"'), 'Basic authentication, Basic realm="board"', 'words after Basic that are no credentials stay')
  t.same(redact.headers({ 'set-cookie': 'a=b', 'content-type': 'text/html' }), { 'set-cookie': REDACTED, 'content-type': 'text/html' })
  t.same(redact.deep({ [PASSWORD]: [PASSWORD, 1, null] }), { [REDACTED]: [REDACTED, 1, null] }, 'keys and values of JSON')
  t.equal(redactor({ username: 'jobboard', password: 'jobboard' }).text('as jobboard'), 'as jobboard', 'a password that is the user name is shown as the user, as the run names it')
  t.equal(redactor({ username: 'jobboard', password: 'jobboard' }).text(Buffer.from('jobboard:jobboard').toString('base64')), REDACTED, 'but not in its base64 form')
})

t.test('a password too short to tell apart from text is hidden where it stands alone, and in its unambiguous forms everywhere', async (t) => {
  const redact = redactor({ username: 'u', password: 'p' })
  t.equal(redact.text('27 passed, 0 failed; page 2'), '27 passed, 0 failed; page 2', "the kit's own words keep their letters")
  t.equal(redact.text('password: p.'), `password: ${REDACTED}.`, 'the password standing alone is hidden')
  t.equal(redact.text('credentials u:p sent'), `credentials ${REDACTED} sent`, 'user:pass is hidden')
  t.equal(redact.text(`token ${Buffer.from('u:p').toString('base64')}`), `token ${REDACTED}`, 'and its base64')
  t.equal(redact.text(`Authorization: Basic ${Buffer.from('u:p').toString('base64')}`), `Authorization: ${REDACTED}`, 'and the Authorization value')
  t.equal(redact.text('http://u:p@host/api'), `http://${REDACTED}@host/api`, 'and URL credentials')
  const seven = redactor({ username: 'ci', password: 'board12' })
  t.equal(seven.text('http://staging/board12/x and board123'), `http://staging/${REDACTED}/x and board123`, 'a seven-character password is hidden as a token, not inside a longer word')
  const eight = redactor({ username: 'ci', password: 'board123' })
  t.equal(eight.text('xboard123x'), `x${REDACTED}x`, 'from eight characters on, it is hidden wherever it is')
})

t.test("a file's keys are kept where they are names its reader looks up; its values are redacted", async (t) => {
  const redact = redactor({ username: 'ci', password: 'date' })
  const point = { value: 'json', date: '2026-11-22 02:17:41', note: 'sent with password date' }
  t.same(redact.values(point), { value: 'json', date: '2026-11-22 02:17:41', note: `sent with password ${REDACTED}` }, 'values: the key date stays, the password in a value goes')
  t.same(redact.deep(point), { value: 'json', [REDACTED]: '2026-11-22 02:17:41', note: `sent with password ${REDACTED}` }, 'deep: keys are redacted too')
  t.same(redact.values([{ nested: { date: ['ci:date'] } }]), [{ nested: { date: [REDACTED] } }], 'at every depth')
})

t.test('a passing run writes no secret in any output', async (t) => {
  const dir = t.testdir()
  const { url } = await board(t, {}, { username: USER, password: PASSWORD })
  const run = await contract({ baseUrl: url, ...flagsIn(dir) })
  t.equal(run.exitCode, 0, run.reason ?? 'exit 0')
  noSecret(t, outputs(dir, run.output), ALL)
})

t.test('a run against a deployment whose 5xx page echoes the request writes no secret in any output', async (t) => {
  const dir = t.testdir()
  const { url } = await board(
    t,
    {
      answer: (x) => (on(x, /^\/(timesheets\/list|candidates\/details\/2147483647|marketing\/list)$/) && !x.url.includes('page=1002') ? echo(x) : undefined),
      // a link that carries the credentials, as a careless deployment might build it
      reply: (x, r) =>
        on(x, /^\/applications\/list$/) && !x.url.includes('?')
          ? json(r, (b) => {
              ;(b as { next_page: string }).next_page = `http://${USER}:${encodeURIComponent(PASSWORD)}@${x.headers.host}/api/v1/applications/list?page=2`
            })
          : r,
    },
    { username: USER, password: PASSWORD },
  )
  const run = await contract({ baseUrl: url, ...flagsIn(dir) }, { clock: steppingClock() })
  t.equal(run.exitCode, 3, 'the errors make it incomplete')
  t.ok(run.report.checks.some((c) => c.status === 'error' && /answered HTTP 500 \(text\/html\)/.test(c.reason ?? '')), 'the errored checks quote the page')
  t.match(run.output, REDACTED, 'and say where something was hidden')
  noSecret(t, outputs(dir, `${run.output}\n${run.reason ?? ''}`), ALL)
})

t.test('a failing run whose JSON errors quote the request writes no secret in any output', async (t) => {
  const dir = t.testdir()
  const { url } = await board(
    t,
    {
      answer: (x) =>
        on(x, /^\/job\/add$/)
          ? jsonReply(403, {
              status: 403,
              message: `refused ${Buffer.from(String(x.headers.authorization).slice(6), 'base64').toString()}`,
              request: { headers: x.headers, cookie: `session=${COOKIE}` },
            })
          : undefined,
    },
    { username: USER, password: PASSWORD, rateLimitWindow: 0 },
  )
  const run = await contract({ baseUrl: url, writes: true, only: 'fields,jobs', rateLimitWindow: 0, ...flagsIn(dir) })
  t.equal(run.exitCode, 1, 'job/add is refused: a check fails')
  t.match(run.failed(), ['job/add: a valid job answers 200 with the public page URL and the new id'])
  noSecret(t, outputs(dir, `${run.output}\n${run.reason ?? ''}`), ALL)
})

/** The command as the CLI runs it, its streams kept. */
async function action(flags: Record<string, unknown>, env: NodeJS.ProcessEnv = {}) {
  let [stdout, stderr] = ['', '']
  const io: CommandIo = {
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
    env,
    exit: () => undefined,
    onSignal: () => () => {},
  }
  const code = await contractAction(flags, io)
  return { code, stdout, stderr }
}

t.test('an unreachable run and refused settings write no secret to stdout or stderr', async (t) => {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  await new Promise((resolve) => server.close(resolve))
  const dir = t.testdir()
  const env = { JOBBOARD_USERNAME: USER, JOBBOARD_PASSWORD: PASSWORD, HTTPS_PROXY: `http://proxy-user:${PROXY_PASSWORD}@127.0.0.1:9` }
  const unreachable = await action({ baseUrl: `http://127.0.0.1:${port}`, junit: join(dir, 'contract.xml'), report: join(dir, 'report.json') }, env)
  t.equal(unreachable.code, 2)
  t.match(unreachable.stderr, /cannot reach/)
  noSecret(t, outputs(dir, unreachable.stdout + unreachable.stderr), ['stdout and stderr', 'contract.xml', 'report.json'])

  const inUrl = await action({ baseUrl: `http://${USER}:${encodeURIComponent(PASSWORD)}@127.0.0.1:${port}` }, env)
  t.equal(inUrl.code, 2)
  t.match(inUrl.stderr, /must not hold credentials: give --username and --password/)
  const notUrl = await action({ baseUrl: `http://${USER}:${PASSWORD}@ 127.0.0.1` }, env)
  t.equal(notUrl.code, 2)
  for (const run of [inUrl, notUrl]) noSecret(t, { 'stdout and stderr': run.stdout + run.stderr }, ['stdout and stderr'])
})
