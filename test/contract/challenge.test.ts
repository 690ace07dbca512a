// A 401's WWW-Authenticate (issue 43 item 2): "HTTP Basic authentication" brings in RFC 9110's
// challenge and RFC 7617's Basic scheme. Every 401 a run gets must carry a challenge for
// Basic with a quoted realm; what the RFCs allow passes (several challenges, names in any
// case, a charset, whitespace, a token68 scheme beside it); a 403 needs no challenge. The
// reading alone here; a 401 without a challenge caught in a whole run in front of the fake
// and of the second server, citing the RFC's words.
import t from 'tap'
import { challengeProblem, parseChallenges } from '../../src/contract/challenge.js'
import { board, contract, dropHeader, otherBoard } from './helpers.js'

t.test('what the RFCs allow in a challenge passes', async (t) => {
  for (const header of [
    'Basic realm="jobboard-kit", charset="UTF-8"',
    'Basic realm="Job Board"',
    'basic REALM="x"',
    'BASIC  realm = "x" , charset=UTF-8',
    'Bearer realm="api", error="invalid_token", Basic realm="staging"',
    'Newauth realm="apps", type=1, title="Login to \\"apps\\"", Basic realm="simple"',
    'Negotiate abc123==, Basic realm="x"',
    'Basic realm="a, b"',
  ]) t.equal(challengeProblem(header), undefined, header)
})

t.test('what they forbid is named with the RFC section it breaks', async (t) => {
  const cases: Array<[string | undefined, RegExp]> = [
    [undefined, /without WWW-Authenticate \(RFC 9110 §11\.6\.1/],
    ['', /without WWW-Authenticate/],
    ['Bearer realm="api"', /no challenge for Basic.*RFC 9110 §15\.5\.2/],
    ['Basic', /names no realm \(RFC 7617 §2/],
    ['Basic charset="UTF-8"', /names no realm/],
    ['Basic realm=jobboard', /token jobboard, not a quoted-string \(RFC 9110 §11\.5/],
    ['Basic realm="unclosed', /not a list of challenges.*not closed/],
    ['Basic realm="a", realm="b"', /realm twice/],
    ['realm="x"', /before any scheme/],
  ]
  for (const [header, expected] of cases) t.match(challengeProblem(header), expected, String(header))
})

t.test('a challenge list is read as RFC 9110 §11.6.1 writes it', async (t) => {
  const { challenges, problems } = parseChallenges('Newauth realm="apps", type=1, title="Login to \\"apps\\"", Basic realm="simple"')
  t.same(problems, [])
  t.same(challenges.map((c) => c.scheme), ['Newauth', 'Basic'])
  t.same(challenges[0]?.params.get('title'), { value: 'Login to "apps"', quoted: true })
  t.same(parseChallenges('Negotiate a87421000492aa874209af8bc028==').challenges[0]?.token68, 'a87421000492aa874209af8bc028==')
})

const REALM = "spec: RFC 9110 §11.6.1 (HTTP Semantics): \"A server generating a 401 (Unauthorized) response MUST send a WWW-Authenticate header field containing at least one challenge.\""
const CHECK = 'every answer: each 401 carries a WWW-Authenticate challenge for Basic with a quoted realm'

t.test('a 401 without WWW-Authenticate fails the run in front of the fake and of the second server, citing RFC 9110', async (t) => {
  const fake = await board(t, dropHeader('www-authenticate'))
  const other = await otherBoard(t, dropHeader('www-authenticate'), { style: 'b', username: 'jobboard', password: 'jobboard' })
  for (const { url } of [fake, other]) {
    const run = await contract({ baseUrl: url, only: 'auth' })
    t.equal(run.exitCode, 1, `exit 1: ${run.reason}`)
    t.same(run.failed(), [CHECK], 'the challenge check alone fails')
    t.ok(run.output.includes(REALM), "the summary quotes the RFC's words")
  }
})

t.test('refusals answered 403 without a challenge pass in front of the fake and of the second server', async (t) => {
  const forbid = { reply: (_x: unknown, r: { status: number; headers: Record<string, string>; body: Buffer }) => (r.status === 401 ? { ...r, status: 403, headers: Object.fromEntries(Object.entries(r.headers).filter(([k]) => k !== 'www-authenticate')) } : r) }
  for (const { url } of [await board(t, forbid), await otherBoard(t, forbid, { style: 'a', username: 'jobboard', password: 'jobboard' })]) {
    const run = await contract({ baseUrl: url, only: 'auth' })
    t.equal(run.exitCode, 0, `exit 0 (failed: ${run.failed().join('; ') || 'none'})`)
    t.equal(run.check('every answer', 'each 401 carries a WWW-Authenticate challenge for Basic with a quoted realm')?.status, 'skip', 'no 401 to hold: the check does not apply')
  }
})
