// Extra record fields (behaviour.extraFields): made in their example's shape,
// deterministic per seed, on records generated and added alike, and validated by the
// store like every other field.
import t, { type Test } from 'tap'
import { createMockServer } from '../../../src/fake/server.js'
import { EXTRA_FIELDS } from '../../helpers/profile-values.js'

const start = async (t: Test, seed = 1) => {
  const server = await createMockServer({ clock: 'virtual', rateLimitWindow: 0, seed, extraFields: structuredClone(EXTRA_FIELDS) as never })
  t.teardown(() => server.close())
  return server
}

t.test('values follow the example\'s shape', async (t) => {
  const server = await start(t)
  for (const page of [server.store.candidates(), server.store.candidates({ page: 2 })]) {
    for (const c of page.items as Array<Record<string, unknown>>) {
      t.match(c.crm_id, /^[A-Z]{2}-[0-9]{5}$/)
      t.match(String(c.score), /^[1-9][0-9]\.[1-9]$/)
      t.type(c.vip, 'boolean')
    }
  }
  const m = server.store.marketing().items[0] as Record<string, unknown>
  t.match(m.channel, { name: /^[a-z]{3}$/, id: Number })
})

t.test('the same seed gives the same values, another seed others', async (t) => {
  const pick = (s: Awaited<ReturnType<typeof start>>) => s.store.candidates().items.map((c) => (c as Record<string, unknown>).crm_id)
  const [a, b, c] = [await start(t, 3), await start(t, 3), await start(t, 4)]
  t.same(pick(a), pick(b))
  t.notSame(pick(a), pick(c))
})

t.test('records added later carry them too', async (t) => {
  const server = await start(t)
  const added = server.store.addCandidate() as Record<string, unknown>
  t.match(added.crm_id, /^[A-Z]{2}-[0-9]{5}$/)
  t.match(server.store.addApplication() as object, { source: /^[A-Z][a-z]{5}$/, rank: Number })
  t.match(server.store.addTimesheet() as object, { approved_by: null, tags: [/^[a-z]{5}$/, /^[a-z][0-9]$/] })
  t.match(server.store.addMarketing() as object, { channel: { name: /^[a-z]{3}$/ } })
})

t.test('a saved board keeps them, and one whose extra field has the wrong type is refused', async (t) => {
  const server = await start(t)
  const state = structuredClone(server.exportState())
  const first = state.store.candidates[0] as Record<string, unknown>
  const broken = structuredClone(state)
  server.importState(state)
  t.equal((server.store.candidate(first.id as number) as Record<string, unknown>).crm_id, first.crm_id)
  ;(broken.store.candidates[0] as Record<string, unknown>).crm_id = 12
  t.throws(() => server.importState(broken), /crm_id.*must be a string/)
})

t.test('extra fields given as an option outlive a reset to another scenario', async (t) => {
  const server = await start(t)
  server.reset({ scenario: { name: 'plain' } })
  t.match(server.store.candidate(1), { crm_id: /^[A-Z]{2}-[0-9]{5}$/ })
})

t.test('a reset or restore to other extra fields is refused, and the board stays as it was', async (t) => {
  const server = await createMockServer({ clock: 'virtual', scenarioData: { name: 'with-extras', behaviour: { extraFields: structuredClone(EXTRA_FIELDS) as never } } })
  t.teardown(() => server.close())
  const before = server.store.candidate(1)
  t.throws(() => server.reset({ scenario: { name: 'plain' } }), /other extra record fields/)
  t.same(server.store.candidate(1), before)
  const other = await createMockServer({ clock: 'virtual' })
  t.teardown(() => other.close())
  t.throws(() => server.importState(other.exportState()), /other extra record fields/)
  t.same(server.store.candidate(1), before)
  t.doesNotThrow(() => server.reset(), 'a reset to the same scenario is fine')
})

t.test('an extra field named __proto__, constructor or prototype is refused as an option', async (t) => {
  for (const name of ['__proto__', 'constructor', 'prototype']) {
    const extraFields = JSON.parse(`{"candidate": {"${name}": {"type": "string", "example": "x"}}}`)
    await t.rejects(createMockServer({ clock: 'virtual', extraFields }), new RegExp(`may not hold a field named "${name}"`), name)
  }
  t.equal(({} as Record<string, unknown>).x, undefined, 'Object.prototype is unpolluted')
})
