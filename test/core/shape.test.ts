// sameShape: a value of an example's shape, never the example's content. The contract
// kit records extra-field examples through it; the fake makes extra fields with it.
import fc from 'fast-check'
import t from 'tap'
import { createFaker } from '../../src/core/random.js'
import { drawFrom, sameShape } from '../../src/core/shape.js'

const draw = (seed = 1) => drawFrom(createFaker(seed))
const classOf = (char: string) => (/[0-9]/.test(char) ? 'digit' : /\p{Lu}/u.test(char) ? 'upper' : /\p{L}/u.test(char) ? 'lower' : char)

t.test('a string keeps its length, and digits, letters and their case where they were', async () => {
  fc.assert(
    fc.property(fc.string({ unit: 'grapheme-ascii', maxLength: 60 }), fc.nat(), (text, seed) => {
      const out = sameShape(text, draw(seed)) as string
      return out.length === text.length && [...text].every((char, i) => classOf(char) === classOf(out[i] as string))
    }),
  )
})

t.test('an e-mail stays an e-mail and no part of it is kept', async (t) => {
  const out = sameShape('jane.doe@example.co.uk', draw()) as string
  t.match(out, /^[a-z]{4}\.[a-z]{3}@[a-z]{7}\.[a-z]{2}\.[a-z]{2}$/)
  t.notOk(/jane|doe|example/.test(out), `${out} holds nothing of the example`)
})

t.test('numbers keep their sign, digits before the point and decimals', async (t) => {
  // biome-ignore lint/suspicious/noApproximativeNumericConstant: a sample with five decimals, not π
  for (const example of [0, 7, 42, -1234, 12.5, -0.25, 3.14159, 100000]) {
    const out = sameShape(example, draw(example + 100)) as number
    t.equal(typeof out, 'number')
    t.equal(Number.isInteger(out), Number.isInteger(example), `${example} → ${out}: integer stays integer`)
    t.equal(Math.sign(out), Math.sign(example), `${example} → ${out}: same sign`)
    t.equal(String(Math.trunc(Math.abs(out))).length, String(Math.trunc(Math.abs(example))).length, `${example} → ${out}: same digits before the point`)
    t.equal(String(out).split('.')[1]?.length ?? 0, String(example).split('.')[1]?.length ?? 0, `${example} → ${out}: same decimals`)
  }
})

t.test('booleans, null, arrays and objects keep their type and structure', async (t) => {
  t.equal(typeof sameShape(true, draw()), 'boolean')
  t.equal(sameShape(null, draw()), null)
  const out = sameShape({ name: 'Ann Lee', ids: [12, 'A-9'], ok: false, none: null }, draw()) as Record<string, unknown>
  t.same(Object.keys(out), ['name', 'ids', 'ok', 'none'])
  t.match(out.name, /^[A-Z][a-z]{2} [A-Z][a-z]{2}$/)
  t.match(out.ids, [Number, /^[A-Z]-[0-9]$/])
  t.equal(out.none, null)
})

t.test('the same seed gives the same value, another seed another', async (t) => {
  const example = { ref: 'CR-20931-XZ', code: 'AbCdEfGhIjKl' }
  t.same(sameShape(example, draw(5)), sameShape(example, draw(5)))
  t.notSame(sameShape(example, draw(5)), sameShape(example, draw(6)))
})
