// The named formats: right shapes pass, wrong shapes and impossible dates do not.
import t from 'tap'
import { isMinute, isTimestamp } from '../../schemas/formats.js'
import { createAjv } from '../../src/core/validation.js'

t.test('timestamp accepts YYYY-MM-DD HH:MM:SS and real dates only', async (t) => {
  for (const ok of ['2026-11-22 09:30:00', '2024-02-29 23:59:59', '2000-02-29 00:00:00']) t.ok(isTimestamp(ok), ok)
  for (const bad of [
    '2026-02-29 10:00:00',
    '1900-02-29 10:00:00',
    '2026-04-31 10:00:00',
    '2026-13-01 10:00:00',
    '2026-00-10 10:00:00',
    '2026-11-22 24:00:00',
    '2026-11-22 09:60:00',
    '2026-11-22 09:30:60',
    '2026-11-22T09:30:00',
    '2026-11-22 09:30:00Z',
    '2026-11-22 09:30',
    ' 2026-11-22 09:30:00',
    '',
  ]) {
    t.notOk(isTimestamp(bad), `refuses ${JSON.stringify(bad)}`)
  }
})

t.test('job dates and since accept YYYY-MM-DD HH:MM only', async (t) => {
  for (const ok of ['2026-11-22 09:30', '2028-02-29 00:00']) t.ok(isMinute(ok), ok)
  for (const bad of ['2026-02-30 09:30', '2026-11-22 9:30', '2026-11-22 09:30:00', '2026-11-22', '2026-11-22+09:30']) {
    t.notOk(isMinute(bad), `refuses ${JSON.stringify(bad)}`)
  }
})

t.test('ajv knows each format by name', async (t) => {
  const ajv = createAjv()
  for (const [format, good, bad] of [
    ['timestamp', '2026-11-22 09:30:00', '2026-02-30 09:30:00'],
    ['job-date', '2026-11-22 09:30', '2026-11-22 09:30:00'],
    ['since', '2026-11-22 09:30', '2026/11/22 09:30'],
    ['date', '2026-11-22', '2026-02-30'],
  ] as const) {
    const validate = ajv.compile({ type: 'string', format })
    t.ok(validate(good), `${format} accepts ${good}`)
    t.notOk(validate(bad), `${format} refuses ${bad}`)
  }
})
