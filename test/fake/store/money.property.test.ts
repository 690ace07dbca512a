// src/fake/store/money.ts writes amounts without Intl: for whole pounds a board draws, for prices
// in pence, for doubles with more places than two (where rounding the shortest decimal and
// rounding the binary value part ways: 1.005 is "1.01") and for any double at all, the text
// is what toLocaleString('en-GB') writes.
import fc from 'fast-check'
import t from 'tap'
import { penceAmount, wholeAmount } from '../../../src/fake/store/money.js'
import { PROPERTY_SEED } from '../../helpers/hostile.js'

const intl = (n: number) => n.toLocaleString('en-GB', { minimumFractionDigits: 2, maximumFractionDigits: 2 })
/** A decimal with `places` digits after the point, as a number (1.005 and its like). */
const decimal = (places: number) => fc.integer({ min: 0, max: 10 ** (6 + places) }).map((n) => Number((n / 10 ** places).toFixed(places)))

t.test('writes whole pounds as toLocaleString(en-GB) does', async (t) => {
  for (const n of [0, 999, 1000, 45_000, 999_999, 1_000_000, Number.MAX_SAFE_INTEGER, -1234, 1e21]) t.equal(wholeAmount(n), n.toLocaleString('en-GB'), String(n))
  const mismatch = fc.check(fc.property(fc.integer({ min: 0, max: 10_000_000 }), (n) => wholeAmount(n) === n.toLocaleString('en-GB')), { seed: PROPERTY_SEED, numRuns: 2000 })
  t.notOk(mismatch.failed, `${mismatch.counterexample ?? ''}`)
})

t.test('writes pence as toLocaleString(en-GB) with two places does, rounding as Intl rounds', async (t) => {
  for (const n of [1.005, 2.675, 0.125, 1.115, 123456.785, 0.999, 5.001, 0.000001, 1e-7, 1e21, -2.5, -0]) t.equal(penceAmount(n), intl(n), String(n))
  for (const places of [1, 2, 3, 4]) {
    const mismatch = fc.check(fc.property(decimal(places), (n) => penceAmount(n) === intl(n)), { seed: PROPERTY_SEED, numRuns: 1000 })
    t.notOk(mismatch.failed, `${places} places: ${mismatch.counterexample ?? ''}`)
  }
  const anyDouble = fc.check(fc.property(fc.double({ noNaN: true }), (n) => penceAmount(n) === intl(n)), { seed: PROPERTY_SEED, numRuns: 2000 })
  t.notOk(anyDouble.failed, `any double: ${anyDouble.counterexample ?? ''}`)
})
