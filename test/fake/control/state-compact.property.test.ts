// Property: whatever sequence of writes a board has seen (control-API adds of every kind,
// job writes through the API, clock moves), its compact saved state restores into a
// fresh fake as the same board: the same full and compact states, the same answers.
import type { FastifyInstance } from 'fastify'
import fc from 'fast-check'
import t from 'tap'
import { buildApp } from '../../../src/fake/app.js'
import { call, checked } from '../../helpers/board.js'
import { PROPERTY_SEED } from '../../helpers/hostile.js'
import { boardUrls, differences, putState, savedText } from '../../helpers/state.js'
import { jobInputSample } from '../../fixtures/samples.js'
import { runs } from '../../helpers/deep.js'

type Write = (app: FastifyInstance) => Promise<unknown>

/** A write that a counterexample names by its request. */
const named = (label: string, run: Write): Write => Object.assign(run, { [fc.toStringMethod]: () => label })
const control = (path: string, body: object): Write =>
  named(`POST /__mock/${path} ${JSON.stringify(body)}`, (app) =>
    app.inject({ method: 'POST', url: `/__mock/${path}`, headers: { 'content-type': 'application/json' }, payload: JSON.stringify(body) }),
  )
const jobApi = (operation: string, body: object): Write =>
  named(`POST /api/v1/job/${operation} ${JSON.stringify(body)}`, (app) => call(app, { method: 'POST', url: `/api/v1/job/${operation}`, payload: body }))

const candidateId = fc.integer({ min: 1, max: 60 })
const created = fc.date({ min: new Date('2025-01-01T00:00:00Z'), max: new Date('2026-11-01T00:00:00Z'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 19).replace('T', ' '))

const write: fc.Arbitrary<Write> = fc.oneof(
  fc.record({ resumes: fc.array(fc.record({ filesize: fc.nat(50_000) }), { maxLength: 2 }), documents: fc.array(fc.constant({}), { maxLength: 2 }) }).map((b) => control('candidates', b)),
  fc.option(created, { nil: undefined }).map((at) => control('candidates', at ? { created_at: at } : {})),
  fc.record({ candidate_id: candidateId, attachment_filesize: fc.nat(20_000) }).map((b) => control('applications', b)),
  fc.constant(control('applications', {})),
  fc.option(candidateId, { nil: undefined }).map((id) => control('timesheets', id ? { candidate_id: id } : {})),
  fc.oneof(candidateId.map((id) => ({ candidate_id: id })), fc.constant({ candidate_id: 0, email: 'nobody@example.org' }), fc.constant({})).map((b) => control('marketing', b)),
  fc.constant(control('jobs', jobInputSample())),
  fc.constant(jobApi('add', jobInputSample())),
  fc.tuple(fc.constantFrom('close', 'expire', 'repost', 'delete'), fc.integer({ min: 1, max: 20 })).map(([operation, id]) => jobApi(operation, { id })),
  fc.integer({ min: -30 * 86_400, max: 60 * 86_400 }).map((seconds) => control('clock/advance', { seconds })),
)

t.test('a compact saved board restores as the same board after any sequence of writes', async (t) => {
  const open = async (scenario: string, seed?: number) => buildApp({ clock: 'virtual', rateLimitWindow: 0, scenario, ...(seed ? { seed } : {}), ...checked(t) })
  await fc.assert(
    fc.asyncProperty(fc.constantFrom('default', 'edge-cases'), fc.array(write, { minLength: 1, maxLength: 12 }), async (scenario, writes) => {
      const [original, fresh] = [await open(scenario), await open(scenario, 99)]
      try {
        for (const w of writes) await w(original)
        const compact = await savedText(original, 'compact')
        if ((await putState(fresh, compact)).status !== 200) return false
        if ((await savedText(fresh)) !== (await savedText(original))) return false
        if ((await savedText(fresh, 'compact')) !== compact) return false
        return (await differences(original, fresh, await boardUrls(original))).length === 0
      } finally {
        await Promise.all([original.close(), fresh.close()])
      }
    }),
    { numRuns: runs(25, 3), seed: PROPERTY_SEED },
  )
  t.pass('every sequence round-trips')
})
