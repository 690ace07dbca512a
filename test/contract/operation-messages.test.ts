// Each job operation's success message says what the spec says it says ("the job has been
// deleted", "closed (unpublished)", "expired", "reposted"): a deployment answering one
// operation with another's message fails that operation's check and no other; one that
// words every message its own way, each saying its operation, passes.
import t from 'tap'
import { board, contract, json, on, type Breakage } from './helpers.js'

const WRITES = { flags: { only: 'fields,jobs', writes: true, rateLimitWindow: 0 }, fake: { rateLimitWindow: 0 } } as const

/** Rewrites the message of one operation's 200 answers. */
const messageOf = (op: string, message: (id: unknown) => string): Breakage => ({
  reply: (x, r) =>
    on(x, new RegExp(`^/job/${op}$`))
      ? json(r, (b) => {
          const body = b as { message?: string; status?: number }
          if (body.status === 200) body.message = message(JSON.parse(x.body.toString('utf8') || '{}').id)
        })
      : r,
})

t.test("a close answered with delete's message fails the close message check alone", async (t) => {
  const { url } = await board(t, messageOf('close', (id) => `Job ${String(id)} has been deleted.`), WRITES.fake)
  const run = await contract({ baseUrl: url, ...WRITES.flags })
  t.equal(run.exitCode, 1)
  t.same(run.failed(), ['job/close: the message of closing the job says the job has been closed (unpublished)'])
})

t.test("an expire answered with repost's message fails the expire message check alone", async (t) => {
  const { url } = await board(t, messageOf('expire', () => 'The job has been reposted.'), WRITES.fake)
  const run = await contract({ baseUrl: url, ...WRITES.flags })
  t.equal(run.exitCode, 1)
  t.same(run.failed(), ['job/expire: the message of expiring the job says the job has been expired'])
})

t.test('messages worded otherwise, each saying its operation, pass', async (t) => {
  const worded: Record<string, string> = {
    close: 'Vacancy unpublished: it no longer shows on the board',
    expire: 'Vacancy expired; applications are no longer accepted',
    repost: 'Re-posted: the vacancy runs another month',
    delete: 'Vacancy removed permanently',
  }
  const breakages = Object.entries(worded).map(([op, text]) => messageOf(op, () => text))
  const { url } = await board(t, { reply: async (x, r) => breakages.reduce(async (reply, b) => (b.reply ? b.reply(x, await reply) : reply), Promise.resolve(r)) }, WRITES.fake)
  const run = await contract({ baseUrl: url, ...WRITES.flags })
  t.equal(run.exitCode, 0, run.reason ?? 'exit 0')
  for (const op of ['close', 'expire', 'repost', 'delete']) {
    t.equal(run.report.checks.find((c) => c.endpoint === `job/${op}` && c.name.startsWith('the message of'))?.status, 'pass', `job/${op}'s message check passes`)
  }
})
