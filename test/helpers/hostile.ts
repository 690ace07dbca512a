// fast-check arbitraries of what a hostile client or a careless test sends: odd strings
// (control characters, lone surrogates, `%`, prototype keys, 20 KB runs), wrong types,
// values nested too deep, and objects keyed `__proto__` or `constructor`.
import fc from 'fast-check'

/** Every property test runs with a fixed seed and a bounded number of runs. */
export const PROPERTY_SEED = 20261123

export const hostileString = fc.oneof(
  fc.string({ maxLength: 30 }),
  fc.string({ unit: fc.constantFrom('\u0000', '\u0001', '\u001f', '\u007f', '\u0080', '\u00ff', '€', '\ud800', '%', '/', '?', '#', '"', '\\', 'a', '1'), maxLength: 12 }),
  fc.constantFrom('', ' ', '0', '-1', '1e3', '0x1f', '9'.repeat(150), 'x'.repeat(20_000), '__proto__', 'constructor', 'prototype', '%zz', '../../etc/passwd', '2026-02-30 10:00', '0050-01-01 00:00:00', '10000-01-01 00:00:00'),
)

export const hostileKey = fc.oneof(fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString', 'id', 'name', 'status', 'path', 'seconds', 'now', 'headers', 'body'), fc.string({ maxLength: 8 }))

const number = fc.oneof(fc.integer(), fc.double(), fc.constantFrom(0, -0, 1e308, -1e308, 2 ** 53, 999, 250_000_000, 5e9))

/** JSON of any shape, at most a few levels deep. */
export const hostileValue: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', maxDepth: 3 },
    hostileString,
    number,
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(hostileKey, tie('value'), { maxKeys: 3 }),
  ),
})).value

/** A value nested `depth` levels deep. */
export const nested = (depth: number): unknown => {
  let value: unknown = 1
  for (let i = 0; i < depth; i++) value = i % 2 ? [value] : { a: value }
  return value
}

/** An object body: random fields, wrong types, sometimes one field nested far too deep. */
export const hostileBody = fc.oneof(
  fc.dictionary(hostileKey, hostileValue, { maxKeys: 5 }),
  fc.tuple(hostileKey, fc.integer({ min: 65, max: 3000 })).map(([key, depth]) => ({ [key]: nested(depth) })),
  hostileValue,
)

/** Raw body text: JSON of a hostile body, or text that is not JSON at all. */
export const hostileText = fc.oneof(
  hostileBody.map((body) => JSON.stringify(body) ?? 'null'),
  fc.constantFrom('', '{', '{"a":', '[1,]', 'null', '"x"', '{"__proto__":{"polluted":1}}', '{"constructor":{"prototype":{"polluted":1}}}', `${'['.repeat(20_000)}${']'.repeat(20_000)}`),
  fc.string({ maxLength: 40 }),
)

/** A header value Node lets a client send (Latin-1, no line breaks or NUL). */
export const headerValue = fc.oneof(
  fc.string({ unit: fc.constantFrom('a', ' ', '\t', '%', ':', ';', '=', ',', '"', '\u00e9', '\u00ff', '1'), maxLength: 30 }),
  fc.constantFrom('Basic', 'Basic !!!', `Basic ${Buffer.from(':').toString('base64')}`, `Basic ${Buffer.from('jobboard').toString('base64')}`, 'Bearer x', 'code=500', 'code=412', 'x'.repeat(4000)),
)

/** True when nothing has been added to Object.prototype. */
export const prototypeClean = (): boolean => Object.keys(Object.prototype).length === 0 && ({} as Record<string, unknown>).polluted === undefined
