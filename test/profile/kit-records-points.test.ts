// Every point of the profile schema, one by one, from the kit's side: a fake over a
// socket with the point's non-default value (test/helpers/profile-values.ts) → `contract
// --write-profile` records that value. The loop is over the schema's points, so a point
// added to schemas/profile.ts that the kit does not record fails here; the only points
// allowed to stay unseen are those the kit's recording table lists in NOT_OBSERVABLE
// (src/contract/point-recorders.ts), each recorded `not-seen` with its reason. npm test runs a
// quarter of the points; npm run test:deep (in .ci/run) all of them.
import { join } from 'node:path'
import t from 'tap'
import { heldToKind, NOT_HONOURED, PROFILE_POINTS, type ProfilePointName } from '../../schemas/profile.js'
import { NOT_OBSERVABLE } from '../../src/contract/point-recorders.js'
import type { ContractFlags } from '../../src/contract/settings.js'
import { loadProfile, sameValue } from '../../src/profile/deployment-profile.js'
import { createMockServer } from '../../src/fake/server.js'
import type { ServerOptionsInput } from '../../src/core/types.js'
import { contract } from '../contract/helpers.js'
import { isDeep } from '../helpers/deep.js'
import { nonDefaultValue } from '../helpers/profile-values.js'

interface Setup {
  /** Options the fake gets besides the point (by default: no rate limit). */
  fake?: ServerOptionsInput
  /** Flags the kit runs with besides --write-profile (by default: every read group, no rate limit). */
  kit?: ContractFlags
}

/** What a point needs to be seen: the answers that show it are asked only by some groups. */
const SETUP: Partial<Record<ProfilePointName, Setup>> = {
  // a 429 comes from the rate-limit group's repeated request, with the fake's limit on
  rateLimitBody: { fake: { rateLimitWindow: 900 }, kit: { only: 'metrics,rate-limit', rateLimitWindow: 900 } },
  rateLimitWindow: { fake: {}, kit: { only: 'metrics,rate-limit', rateLimitWindow: 900 } },
  // a 401 always carries its challenge (RFC 9110 §11.6.1): whether a refusal has one is a 403's choice
  authChallenge: { fake: { authStatus: 403 } },
  // close and expire are write checks
  closeExpireIdField: { kit: { writes: true, rateLimitWindow: 0 } },
}

const recorded = (path: string, point: ProfilePointName) =>
  (loadProfile(path).points as Record<string, { value?: unknown; seen: string; note?: string; request?: string } | undefined>)[point]

// a contract run per point: npm test runs every fourth point of the schema,
// npm run test:deep every point, so a point the kit does not record fails there. A point
// the fake does not honour (NOT_HONOURED: a burst limiter, openJobValues) cannot be set on a
// fake: the kit records them from a deployment in front of one (a limiter:
// test/profile/spec-silent-points.test.ts; a lenient job/add: test/contract/open-values.test.ts)
const HONOURED = PROFILE_POINTS.filter((point) => !Object.hasOwn(NOT_HONOURED, point))
const POINTS = isDeep() ? HONOURED : HONOURED.filter((_, index) => index % 4 === 0)

for (const point of POINTS) {
  const exception = NOT_OBSERVABLE[point]
  t.test(exception === undefined ? `records a non-default ${point} from a deployment` : `records ${point} as not seen, saying why`, async (t) => {
    const setup = SETUP[point] ?? {}
    const value = nonDefaultValue(point)
    const fake = await createMockServer({ clock: 'virtual', rateLimitWindow: 0, ...setup.fake, [point]: value } as ServerOptionsInput)
    t.teardown(() => fake.close())
    const url = await fake.listen(0)
    const file = join(t.testdir(), 'profile.json')
    const run = await contract({ baseUrl: url, rateLimitWindow: 0, ...setup.kit, writeProfile: file })
    t.not(run.exitCode, 2, `the run went through: ${run.reason ?? ''}`)
    const entry = recorded(file, point)
    if (exception !== undefined) {
      t.same(entry, { seen: 'not-seen', note: exception }, 'not seen, with the reason the recording table gives')
      return
    }
    t.ok(entry?.seen === 'directly' || entry?.seen === 'inferred', `${point} is seen (${entry?.seen}: ${entry?.note ?? ''})`)
    // a point read from the records says the same at any value of its kind (sameValue): its reading is held to the knob here, a share known to a record or two of a page or two
    const near = heldToKind(point) && typeof value === 'number' ? Math.abs(Number(entry?.value) - value) <= 0.1 : sameValue(point, entry?.value, value)
    t.ok(near, `${point} is recorded as ${JSON.stringify(value)}, got ${JSON.stringify(entry?.value)}`)
    t.match(entry?.request, /^(GET|POST) \/api\/v1\//, 'with the request that showed it')
  })
}

t.test('the points the kit cannot see are points of the schema', async (t) => {
  t.same(Object.keys(NOT_OBSERVABLE).filter((point) => !(PROFILE_POINTS as readonly string[]).includes(point)), [])
})
