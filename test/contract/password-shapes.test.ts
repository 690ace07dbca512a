// Credentials of every shape, against a correct deployment: the redaction is for the
// kit's outputs, never for the answers its checks read. A one-letter password (as in a
// quick local try) and a password that occurs in the base URL get the same checks
// passing as a long one, reads and writes; a long password is in no output, and the
// kit's own words ("passed") are never eaten.
import t from 'tap'
import { board, contract, json, type Breakage } from './helpers.js'

// whole kit runs, one after another: on a busy machine (CI's second Node, a shared runner) they
// outlast tap's 120 s a file; the guard against a hang, not a timing
t.setTimeout(6 * 60_000)

const PATH = '/staging-board'

/** The deployment served under a base path, its links pointing there too. */
function underPath(holder: { url: string }): Breakage {
  const rewrite = (value: unknown): unknown => {
    if (typeof value === 'string') return value.split(`${holder.url}/api/v1`).join(`${holder.url}${PATH}/api/v1`)
    if (Array.isArray(value)) return value.map(rewrite)
    if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, rewrite(v)]))
    return value
  }
  return { request: (x) => ({ ...x, url: x.url.startsWith(PATH) ? x.url.slice(PATH.length) : x.url }), reply: (_x, r) => json(r, rewrite) }
}

interface Shape {
  name: string
  username: string
  password: string
  /** Serve the deployment under PATH (a base URL holding the password). */
  underPath?: boolean
}

const SHAPES: Shape[] = [
  // a colon in it: RFC 7617 §2, "text after the first colon is part of the password"
  { name: 'a long password', username: 'ci-robot', password: 'correct-horse:battery-staple' },
  { name: 'a one-letter password', username: 'u', password: 'p' },
  { name: 'a password that occurs in the base URL', username: 'ci-robot', password: PATH.slice(1), underPath: true },
  { name: 'a short password that occurs in the base URL', username: 'u', password: 'board', underPath: true },
]

const RUNS = [
  { name: 'a read run', flags: {}, fake: {} },
  { name: 'a run with writes', flags: { writes: true, rateLimitWindow: 0 }, fake: { rateLimitWindow: 0 } },
] as const

for (const run of RUNS) {
  t.test(`${run.name} passes the same checks whatever the password's shape`, async (t) => {
    const passed: Record<string, string[]> = {}
    for (const shape of SHAPES) {
      const holder = { url: '' }
      const { url } = await board(t, shape.underPath ? underPath(holder) : {}, { username: shape.username, password: shape.password, ...run.fake })
      holder.url = url
      const baseUrl = shape.underPath ? `${url}${PATH}` : url
      const result = await contract({ baseUrl, username: shape.username, password: shape.password, ...run.flags })
      t.equal(result.exitCode, 0, `${shape.name}: exit 0 (${result.reason ?? 'conforming'}; failed: ${result.failed().join('; ') || 'none'})`)
      t.match(result.output, /\d+ passed, 0 failed/, `${shape.name}: the summary says "passed" in the kit's own words`)
      passed[shape.name] = result.report.checks.filter((c) => c.status === 'pass').map((c) => `${c.endpoint}: ${c.name}`)
      if (shape.password.length >= 8) t.notOk(JSON.stringify(result.report).includes(shape.password) || result.output.includes(shape.password), `${shape.name}: no output holds it`)
    }
    const [first, ...others] = SHAPES.map((s) => s.name)
    t.ok((passed[first as string] ?? []).length > 20, 'the long password passes a full run of checks')
    for (const other of others) t.same(passed[other], passed[first as string], `${other} passes the same checks as ${first}`)
  })
}
