// The bench's figure for the verdict at scale (issue 21: "a verdict over 100,000 journal
// entries answers in under a second"): a fake whose journal records 100,000 API requests
// of a busy client (walking lists, reading details, downloading, asking a URL again after
// its 429, a request without credentials, a refused job write), then how long the verdict
// takes, in-process and as GET /__mock/verdict answers it, and what recording an entry
// cost the journal and the evaluator. The journal keeps its last 10,000 entries; the
// verdict covers all 100,000. Reports only.
import { performance } from 'node:perf_hooks'
import { JOURNAL_SIZE } from '../src/watch/journal.js'
import { createMockServer } from '../src/fake/server.js'

export interface VerdictScaleFigures {
  entries: number
  /** Entries the journal held at the end (its ring). */
  journalHeld: number
  /** Microseconds per entry, recording it in the journal and handing it to the evaluator. */
  recordMicros: number
  /** server.verdict(): judging what is pending and reading the evaluator's state. */
  verdictMs: number
  /** GET /__mock/verdict (in-process inject): the route and its JSON too. */
  httpMs: number
  outcome: string
  findings: number
}

const API = '/api/v1'

export async function measureVerdictScale(entries = 100_000): Promise<VerdictScaleFigures> {
  const fake = await createMockServer({ scenario: 'default', clock: 'virtual', rateLimitWindow: 900 })
  try {
    const board = fake.app.board
    const start = board.clock.now()
    const began = performance.now()
    for (let i = 0; i < entries; i++) {
      const time = start + i * 1000
      const user = i % 20 < 15 ? 'jobboard' : 'reporting'
      const kind = i % 10
      const page = ((i >> 2) % 40) + 1
      if (kind < 4) {
        board.journal.record({ method: 'GET', url: `${API}/applications/list?page=${page}`, status: 200, time, user, nextPage: page < 40 }, { credentials: true, opened: true })
      } else if (kind === 4) board.journal.record({ method: 'GET', url: `${API}/candidates/details/${i % 396}`, status: 200, time, user }, { credentials: true, opened: true })
      else if (kind === 5) board.journal.record({ method: 'GET', url: `${API}/candidates/resume/${i}`, status: 200, time, user }, { credentials: true, opened: true })
      else if (kind === 6) {
        board.journal.record({ method: 'GET', url: `${API}/metrics/list`, status: 429, time, user, retryAfter: 900 }, { credentials: true, windowOpened: time - 5_000 })
      } else if (kind === 7) {
        board.journal.record({ method: 'GET', url: `${API}/candidates/list?since=2026-11-20+09:30&page=1`, status: 200, time, user, nextPage: false }, { credentials: true, opened: true })
      } else if (kind === 8) board.journal.record({ method: 'GET', url: `${API}/timesheets/list`, status: 401, time, user: '' }, { credentials: false })
      else {
        board.journal.record(
          { method: 'POST', url: `${API}/job/add`, status: 412, time, user, contentType: 'application/json', digest: 'same body' },
          { credentials: true, staleFields: { job_industry: 'current' } },
        )
      }
    }
    const recordMicros = ((performance.now() - began) * 1000) / entries
    const judged = performance.now()
    const verdict = fake.verdict()
    const verdictMs = performance.now() - judged
    const asked = performance.now()
    const response = await fake.app.inject({ method: 'GET', url: '/__mock/verdict' })
    const httpMs = performance.now() - asked
    if (response.statusCode !== 200) throw new Error(`GET /__mock/verdict answered ${response.statusCode}.`)
    return {
      entries,
      journalHeld: board.journal.size,
      recordMicros,
      verdictMs,
      httpMs,
      outcome: verdict.outcome,
      findings: verdict.rules.reduce((sum, rule) => sum + rule.findings.length, 0),
    }
  } finally {
    await fake.close()
  }
}

export const renderVerdictScale = (f: VerdictScaleFigures) =>
  `verdict over ${f.entries.toLocaleString('en-GB')} journal entries (the journal holds its last ${f.journalHeld.toLocaleString('en-GB')}, ring of ${JOURNAL_SIZE.toLocaleString('en-GB')}): ` +
  `server.verdict() ${f.verdictMs.toFixed(1)} ms, GET /__mock/verdict ${f.httpMs.toFixed(1)} ms (goal: under 1 s); ${f.outcome}, ${f.findings} findings; recording an entry ${f.recordMicros.toFixed(2)} µs`
