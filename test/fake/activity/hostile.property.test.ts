// Hostile activities given in-process: whatever the events hold, the fake refuses with an
// ActivityError naming a field (never another error), or plays the day without a 5xx.
import fc from 'fast-check'
import t from 'tap'
import { ACTIVITY_EVENTS } from '../../../schemas/activity.js'
import { ActivityError, loadActivity } from '../../../src/fake/activity/load.js'
import { board } from '../../helpers/board.js'
import { hostileKey, hostileValue, PROPERTY_SEED } from '../../helpers/hostile.js'
import { runs } from '../../helpers/deep.js'

const offset = fc.oneof(
  fc.tuple(fc.integer({ min: 0, max: 12 }), fc.integer({ min: 0, max: 59 })).map(([h, m]) => `+${h}:${String(m).padStart(2, '0')}`),
  fc.string({ maxLength: 8 }),
)
const field = fc.oneof(fc.constantFrom('record', 'changes', 'retire', 'add', 'path', 'status', 'for', 'count', 'over', 'delayMs', 'id', 'note'), hostileKey)
const event = fc.record({
  at: offset,
  event: fc.oneof(fc.constantFrom(...ACTIVITY_EVENTS), fc.string({ maxLength: 12 })),
  extra: fc.dictionary(field, hostileValue, { maxKeys: 3 }),
}).map(({ at, event, extra }) => ({ ...extra, at, event }))

t.test('a hostile activity is refused with an ActivityError naming a field, or plays without a 5xx', async (t) => {
  const app = await board(t)
  let played = 0
  await fc.assert(
    fc.asyncProperty(fc.array(event, { maxLength: 4 }), async (events) => {
      let day: ReturnType<typeof loadActivity>
      try {
        day = loadActivity({ events } as never, app.board.store.validators)
      } catch (error) {
        if (!(error instanceof ActivityError)) throw error
        if (error.field === '' && !/nests deeper/.test(error.message)) throw new Error(`no field named: ${error.message}`)
        return
      }
      played += 1
      app.board.reset()
      app.board.play(day)
      const moved = await app.inject({ method: 'POST', url: '/__mock/clock/advance', payload: { seconds: 13 * 3600 } })
      if (moved.statusCode !== 200) throw new Error(`advance answered ${moved.statusCode}: ${moved.body}`)
      const list = await app.inject({ url: '/api/v1/candidates/list', headers: { authorization: `Basic ${Buffer.from('jobboard:jobboard').toString('base64')}` } })
      if (list.statusCode >= 500 && list.headers['retry-after'] === undefined) throw new Error(`a list answered ${list.statusCode} outside an outage`)
      app.board.faults.clear()
    }),
    { numRuns: runs(200), seed: PROPERTY_SEED },
  )
  t.ok(played > 0, `${played} of the hostile days were valid and played`)
})
