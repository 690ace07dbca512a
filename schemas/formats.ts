// The named string formats of the spec, defined once and registered into every ajv
// instance by addBoardFormats. Each rejects wrong shapes and impossible calendar dates.
import type { Ajv } from 'ajv'
import addFormats from 'ajv-formats'

const TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/
const MINUTE = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2})$/

function isCalendarDate(year: number, month: number, day: number): boolean {
  if (month < 1 || month > 12 || day < 1) return false
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1] as number
  return day <= days
}

function matchesClock(re: RegExp, value: string): boolean {
  const m = re.exec(value)
  if (!m) return false
  const [year, month, day, hour, minute, second = 0] = m.slice(1).map(Number) as number[]
  return (
    isCalendarDate(year as number, month as number, day as number) &&
    (hour as number) <= 23 &&
    (minute as number) <= 59 &&
    second <= 59
  )
}

/** `YYYY-MM-DD HH:MM:SS`, the shape of every timestamp the API returns. */
export const isTimestamp = (value: string): boolean => matchesClock(TIMESTAMP, value)
/** `YYYY-MM-DD H:i` (PHP: two-digit hour and minute), the shape of job dates and of `since`. */
export const isMinute = (value: string): boolean => matchesClock(MINUTE, value)

/**
 * The format names the schemas use. `job-date` and `since` share a shape but keep their
 * own names so that a 412 message can say which one was wrong.
 */
export const FORMATS = {
  timestamp: { validate: isTimestamp, shape: 'YYYY-MM-DD HH:MM:SS', example: '2026-11-22 09:30:00' },
  'job-date': { validate: isMinute, shape: 'YYYY-MM-DD H:i', example: '2026-11-22 09:30' },
  since: { validate: isMinute, shape: 'YYYY-MM-DD HH:MM', example: '2026-11-22 09:30' },
} as const

export type FormatName = keyof typeof FORMATS

/** Registers the spec's formats, plus ajv-formats' date, email and uri, into an ajv instance. */
export function addBoardFormats(ajv: Ajv): Ajv {
  addFormats.default(ajv, ['date', 'email', 'uri', 'ipv4', 'ipv6'])
  for (const [name, { validate }] of Object.entries(FORMATS)) ajv.addFormat(name, { type: 'string', validate })
  return ajv
}
