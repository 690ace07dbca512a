// Values in the shape of an example: the same JSON type, the same length, digits where it
// has digits, letters (of the same case) where it has letters, every other character
// kept (so an e-mail stays an e-mail, a date stays a date). The contract kit replaces the
// examples it records with these, so a profile never holds a deployment's data; the fake
// makes its extra record fields with them. Randomness comes from the caller (a seeded faker).

/** A source of whole numbers in [min, max]: a seeded faker's `number.int`, never Math.random. */
export interface Draw {
  int(min: number, max: number): number
}

export const drawFrom = (faker: { number: { int(options: { min: number; max: number }): number } }): Draw => ({
  int: (min, max) => faker.number.int({ min, max }),
})

const LOWER = 'abcdefghijklmnopqrstuvwxyz'
const UPPER = LOWER.toUpperCase()

function shapeText(text: string, draw: Draw, leadingDigitNonZero = false): string {
  let out = ''
  for (const char of text) {
    if (/[0-9]/.test(char)) {
      const first = leadingDigitNonZero && out.replace(/^-/, '') === ''
      out += String(draw.int(first ? 1 : 0, 9))
    } else if (/\p{Lu}/u.test(char)) out += UPPER[draw.int(0, 25)]
    else if (/\p{L}/u.test(char)) out += LOWER[draw.int(0, 25)]
    else out += char
  }
  return out
}

function shapeNumber(value: number, draw: Draw): number {
  if (!Number.isFinite(value)) return value
  const [mantissa = '', exponent] = String(value).split('e')
  const [whole = '', fraction] = mantissa.split('.')
  // no leading zero (it would be lost, and the length with it), no trailing zero in a fraction either
  const newWhole = /^-?0$/.test(whole) ? whole : shapeText(whole, draw, true)
  const newFraction = fraction === undefined ? '' : `.${shapeText(fraction.slice(0, -1), draw)}${draw.int(1, 9)}`
  return Number(`${newWhole}${newFraction}${exponent === undefined ? '' : `e${exponent}`}`)
}

/** A value of the example's shape (see the top of this file). */
export function sameShape(example: unknown, draw: Draw): unknown {
  if (example === null || example === undefined) return example
  if (typeof example === 'string') return shapeText(example, draw)
  if (typeof example === 'number') return shapeNumber(example, draw)
  if (typeof example === 'boolean') return draw.int(0, 1) === 1
  if (Array.isArray(example)) return example.map((item) => sameShape(item, draw))
  if (typeof example === 'object') {
    return Object.fromEntries(Object.entries(example).map(([key, value]) => [key, sameShape(value, draw)]))
  }
  return null
}
