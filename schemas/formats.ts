// The named string formats of the spec, defined once and registered into every ajv
// instance by addBoardFormats. Each rejects wrong shapes and impossible calendar dates.
// They are written with character codes rather than regular expressions because the
// store validates every record it writes, a million of them for the large scenario.
import type { Ajv, Format } from 'ajv'
import addFormats from 'ajv-formats'

const DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]

/** The number at text[from, from + width), or -1 when a character is not a digit. */
function digits(text: string, from: number, width: number): number {
  let n = 0
  for (let i = from; i < from + width; i++) {
    const c = text.charCodeAt(i) - 48
    if (c < 0 || c > 9) return -1
    n = n * 10 + c
  }
  return n
}

/** `YYYY-MM-DD` at the start of text, a real calendar day. */
function isDay(text: string): boolean {
  if (text.charCodeAt(4) !== 45 || text.charCodeAt(7) !== 45) return false
  const year = digits(text, 0, 4)
  const month = digits(text, 5, 2)
  const day = digits(text, 8, 2)
  if (year < 0 || month < 1 || month > 12 || day < 1) return false
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0
  return day <= (month === 2 && leap ? 29 : (DAYS[month - 1] as number))
}

/** ` HH:MM` (and `:SS` when `seconds`) from position 10, a real time of day. */
function isClock(text: string, seconds: boolean): boolean {
  if (text.charCodeAt(10) !== 32 || text.charCodeAt(13) !== 58) return false
  const hour = digits(text, 11, 2)
  const minute = digits(text, 14, 2)
  if (hour < 0 || hour > 23 || minute < 0 || minute > 59) return false
  if (!seconds) return true
  const second = digits(text, 17, 2)
  return text.charCodeAt(16) === 58 && second >= 0 && second <= 59
}

/** `YYYY-MM-DD HH:MM:SS`, the shape of every timestamp the API returns. */
export const isTimestamp = (value: string): boolean => value.length === 19 && isDay(value) && isClock(value, true)
/** `YYYY-MM-DD H:i` (PHP: two-digit hour and minute), the shape of job dates and of `since`. */
export const isMinute = (value: string): boolean => value.length === 16 && isDay(value) && isClock(value, false)
/** `YYYY-MM-DD` */
export const isDate = (value: string): boolean => value.length === 10 && isDay(value)

// scheme ":" then no white space; "//" authority for http(s), as every URL of the API has
const ABSOLUTE_URI = /^[A-Za-z][A-Za-z0-9+.-]*:[^\s]+$/
const HTTP_URL = /^https?:\/\/[^\s/?#]+[^\s]*$/i
const HTTP = /^https?:/i
/** An absolute URI (RFC 3986 shape, no white space); http(s) ones need a host. */
export const isUri = (value: string): boolean => (HTTP.test(value) ? HTTP_URL.test(value) : ABSOLUTE_URI.test(value))

// The formats' shapes as JSON Schema patterns, for the OpenAPI document: a validator or
// code generator that does not know a format name still refuses `since=yesterday`. They
// check the shape and the ranges of each part; the calendar (30 February) only the
// validate functions do.
const DAY = '[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])'
const HOUR_MINUTE = '([01][0-9]|2[0-3]):[0-5][0-9]'

/**
 * The format names the schemas use. `job-date` and `since` share a shape but keep their
 * own names so that a 412 message can say which one was wrong.
 */
export const FORMATS = {
  timestamp: { validate: isTimestamp, shape: 'YYYY-MM-DD HH:MM:SS', example: '2026-11-22 09:30:00', pattern: `^${DAY} ${HOUR_MINUTE}:[0-5][0-9]$` },
  'job-date': { validate: isMinute, shape: 'YYYY-MM-DD H:i', example: '2026-11-22 09:30', pattern: `^${DAY} ${HOUR_MINUTE}$` },
  since: { validate: isMinute, shape: 'YYYY-MM-DD HH:MM', example: '2026-11-22 09:30', pattern: `^${DAY} ${HOUR_MINUTE}$` },
  date: { validate: isDate, shape: 'YYYY-MM-DD', example: '2026-11-22', pattern: `^${DAY}$` },
  // a standard format every OpenAPI tool knows: no pattern
  uri: { validate: isUri, shape: 'an absolute URL', example: 'https://board.example.com/jobs/42', pattern: undefined },
} as const

export type FormatName = keyof typeof FORMATS

/** The formats as ajv's `formats` option takes them, for ajv instances made elsewhere (Fastify's serializer). */
export const formatOption = (): Record<FormatName, (value: string) => boolean> =>
  Object.fromEntries(Object.entries(FORMATS).map(([name, { validate }]) => [name, validate])) as Record<FormatName, (value: string) => boolean>

/** The formats taken from ajv-formats: email, ipv4, ipv6 and date-time (the ledger's). */
const AJV_FORMATS = ['email', 'ipv4', 'ipv6', 'date-time'] as const

/** Every format an ajv instance of the project knows, by name, as ajv holds them (and as precompiled validators look them up). */
export function formatDefinitions(): Record<string, Format> {
  const out: Record<string, Format> = {}
  for (const name of AJV_FORMATS) out[name] = addFormats.default.get(name)
  for (const [name, { validate }] of Object.entries(FORMATS)) out[name] = { type: 'string', validate }
  return out
}

/** Registers the spec's formats, plus ajv-formats' email, ipv4, ipv6 and date-time, into an ajv instance. */
export function addBoardFormats(ajv: Ajv): Ajv {
  addFormats.default(ajv, [...AJV_FORMATS])
  for (const [name, { validate }] of Object.entries(FORMATS)) ajv.addFormat(name, { type: 'string', validate })
  return ajv
}
