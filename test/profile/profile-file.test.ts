// The profile file: its points are the fake's knobs (derived, not written twice), it is
// validated naming the field at fault, and its values become a fake's options with the
// options given beside it winning.
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import t from 'tap'
import { behaviourProperties } from '../../schemas/behaviour.js'
import { NOT_HONOURED, PROFILE_POINTS, profileFile } from '../../schemas/profile.js'
import { applyProfile, diffProfiles, loadProfile, parseProfile, ProfileError } from '../../src/profile/deployment-profile.js'
import { createMockServer } from '../../src/fake/server.js'
import { nonDefaultOptions, nonDefaultProfile } from '../helpers/profile-values.js'

const profileWith = (points: object) => ({ ...nonDefaultProfile(), points })

t.test('its points are every behaviour knob plus the page size and the rate-limit window, and the points the fake does not honour', async (t) => {
  t.same([...PROFILE_POINTS].sort(), [...Object.keys(behaviourProperties), 'pageSize', 'rateLimitWindow', ...Object.keys(NOT_HONOURED)].sort())
  t.same(Object.keys(profileFile.properties.points.properties).sort(), [...PROFILE_POINTS].sort())
})

t.test('accepts a profile with a non-default value for every point', async (t) => {
  const profile = parseProfile(nonDefaultProfile())
  t.ok(Object.isFrozen(profile))
  t.equal(Object.keys(profile.points).length, PROFILE_POINTS.length)
})

t.test('accepts a point that was not seen, without a value', async (t) => {
  t.doesNotThrow(() => parseProfile(profileWith({ authStatus: { seen: 'not-seen' } })))
})

t.test('refuses a bad profile naming the field', async (t) => {
  t.throws(() => parseProfile(profileWith({ authStatus: { value: 402, seen: 'directly' } })), /points\.authStatus\.value.*401, 403/)
  t.throws(() => parseProfile(profileWith({ colour: { value: 'blue', seen: 'directly' } })), /colour/)
  t.throws(() => parseProfile(profileWith({ pageSize: { value: 10, seen: 'maybe' } })), /points\.pageSize\.seen/)
  t.throws(() => parseProfile(profileWith({ pageSize: { value: 10, seen: 'directly', request: 'candidates/list' } })), /points\.pageSize\.request/)
  t.throws(() => parseProfile({ ...nonDefaultProfile(), kind: 'scenario' }), /kind/)
  t.throws(() => parseProfile({ ...nonDefaultProfile(), version: 2 }), /version/)
  t.throws(
    () => parseProfile(profileWith({ extraFields: { value: { candidate: { crm: { type: 'string', example: 3 } } }, seen: 'directly' } })),
    /points\.extraFields\.value\.candidate\.crm\.example.*must be a string/,
  )
  t.throws(
    () => parseProfile(profileWith({ extraFields: { value: { candidate: { email: { type: 'string', example: 'x' } } }, seen: 'directly' } })),
    /points\.extraFields\.value\.candidate.*may not hold a field named "email"/,
    'a field the spec lists is no extra field',
  )
})

t.test('a file that is missing or not JSON is refused with its name', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'profile-'))
  const path = join(dir, 'broken.json')
  writeFileSync(path, '{"kind":')
  t.throws(() => loadProfile(path), new ProfileError(`Profile ${path} is not valid JSON: Unexpected end of JSON input`))
  t.throws(() => loadProfile(join(dir, 'none.json')), /Cannot read profile .*none\.json: ENOENT/)
})

t.test('its values become options; an option given as well wins and is reported', async (t) => {
  const { options, overrides } = applyProfile({ pageSize: 3, authStatus: 403, seed: 9 }, parseProfile(nonDefaultProfile()))
  t.equal(options.pageSize, 3)
  t.equal(options.seed, 9)
  t.equal(options.monthNames, 'short')
  t.same(overrides, [{ point: 'pageSize', profile: 7, given: 3 }], 'an option equal to the profile\'s value is no override')
})

t.test('createMockServer({ profile }) runs every point the profile gives, by object or by path', async (t) => {
  const expected = nonDefaultOptions()
  const dir = mkdtempSync(join(tmpdir(), 'profile-'))
  const path = join(dir, 'staging.json')
  writeFileSync(path, JSON.stringify(nonDefaultProfile()))
  for (const profile of [nonDefaultProfile(), path]) {
    const server = await createMockServer({ clock: 'virtual', profile })
    t.teardown(() => server.close())
    const { behaviour, pageSize, rateLimitWindow } = server.board.scenario
    t.same({ ...behaviour, pageSize, rateLimitWindow }, expected, `from ${typeof profile === 'string' ? 'a path' : 'an object'}`)
    t.same(server.profileOverrides, [])
  }
})

t.test('a bad profile stops createMockServer with a ProfileError', async (t) => {
  await t.rejects(createMockServer({ profile: profileWith({ pageSize: { value: 0, seen: 'directly' } }) as never }), ProfileError)
})

t.test('two values that say the same as the kit compares them are no difference to profile diff', async (t) => {
  const at = (points: object) => parseProfile({ ...nonDefaultProfile(), points })
  const same = diffProfiles(
    at({ guestApplicants: { value: 0.47, seen: 'inferred' }, extraMetricLabels: { value: ['A', 'B'], seen: 'directly' }, envelopeKeys: { value: { list: ['per_page'], jobAdd: [] }, seen: 'directly' } }),
    at({ guestApplicants: { value: 0.42, seen: 'inferred' }, extraMetricLabels: { value: ['B', 'A'], seen: 'directly' }, envelopeKeys: { value: { list: ['per_page'] }, seen: 'directly' } }),
  )
  t.same(same, [], 'another guest share (read from the records), labels in another order, an envelope kind only one saw')
  const moved = diffProfiles(
    at({ guestApplicants: { value: 0, seen: 'inferred' }, extraMetricLabels: { value: ['A'], seen: 'directly' }, envelopeKeys: { value: { list: [] }, seen: 'directly' } }),
    at({ guestApplicants: { value: 0.05, seen: 'inferred' }, extraMetricLabels: { value: ['B', 'A'], seen: 'directly' }, envelopeKeys: { value: { list: ['per_page'] }, seen: 'directly' } }),
  )
  t.same(moved.map((row) => row.point).sort(), ['envelopeKeys', 'extraMetricLabels'], 'a label more, a key more differ; none and some guests do not (records arriving move the share)')
})
