// Conversions between epoch milliseconds and the API's time shapes. All times are UTC
// (docs/behaviour.md). Pure functions: the current time comes only from src/core/clock.ts.
import { type MONTH_NAME_VALUES, MONTH_NAMES } from '../../schemas/values.js'

const pad = (n: number, width = 2) => String(n).padStart(width, '0')

/** `YYYY-MM-DD HH:MM:SS` */
export function formatTimestamp(ms: number): string {
  const d = new Date(ms)
  return (
    `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ` +
    `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`
  )
}

/** `YYYY-MM-DD H:i` (PHP), the shape of job dates: two-digit hour and minute. */
export function formatMinute(ms: number): string {
  return formatTimestamp(ms).slice(0, 16)
}

/** `YYYY-MM-DD` */
export function formatDate(ms: number): string {
  return formatTimestamp(ms).slice(0, 10)
}

/**
 * Reads `YYYY-MM-DD`, `YYYY-MM-DD HH:MM` or `YYYY-MM-DD HH:MM:SS` as UTC. The shape
 * must already have been validated (schemas/formats.ts); this does not check it.
 */
export function parseTime(text: string): number {
  const year = num(text, 0, 4)
  const ms = Date.UTC(
    year,
    num(text, 5, 2) - 1,
    num(text, 8, 2),
    text.length > 10 ? num(text, 11, 2) : 0,
    text.length > 13 ? num(text, 14, 2) : 0,
    text.length > 16 ? num(text, 17, 2) : 0,
  )
  // Date.UTC reads years 0-99 as 1900-1999: "0050-01-01" must stay in year 50
  if (year >= 100) return ms
  const date = new Date(ms)
  date.setUTCFullYear(year)
  return date.getTime()
}

function num(text: string, from: number, width: number): number {
  let n = 0
  for (let i = from; i < from + width; i++) n = n * 10 + text.charCodeAt(i) - 48
  return n
}

/** The timestamp a `since` value stands for: the start of its minute. */
export function sinceToTimestamp(since: string): string {
  return `${since}:00`
}

/** `YYYY-MM` of an epoch, the key of a month in metrics. */
export function monthKey(ms: number): string {
  return formatTimestamp(ms).slice(0, 7)
}

/** The month key a timestamp string falls in. */
export function monthOfTimestamp(timestamp: string): string {
  return timestamp.slice(0, 7)
}

/** The month key `delta` months from `key`. */
export function shiftMonth(key: string, delta: number): string {
  const index = Number(key.slice(0, 4)) * 12 + Number(key.slice(5, 7)) - 1 + delta
  return `${pad(Math.floor(index / 12), 4)}-${pad((index % 12) + 1)}`
}

export function monthName(key: string): (typeof MONTH_NAMES)[number] {
  return MONTH_NAMES[Number(key.slice(5, 7)) - 1] as (typeof MONTH_NAMES)[number]
}

/** A month name in the style a board writes (behaviour.monthNames): `November` or `Nov`. */
export function styledMonth(name: string, style: 'long' | 'short'): (typeof MONTH_NAME_VALUES)[number] {
  const long = (MONTH_NAMES as readonly string[]).includes(name) ? name : (MONTH_NAMES.find((m) => m.startsWith(name)) ?? name)
  return (style === 'short' ? long.slice(0, 3) : long) as (typeof MONTH_NAME_VALUES)[number]
}

/** The same day and time a month later, clamped to the month's last day (31 Jan → 28/29 Feb). */
export function addMonth(ms: number, months = 1): number {
  const d = new Date(ms)
  const target = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + months, 1, d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds()))
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate()
  target.setUTCDate(Math.min(d.getUTCDate(), lastDay))
  return target.getTime()
}

const ordinal = (day: number) => {
  if (day % 100 >= 11 && day % 100 <= 13) return `${day}th`
  return `${day}${['th', 'st', 'nd', 'rd'][day % 10] ?? 'th'}`
}

/** The parts of a candidate's availability: year, day number, month name and a human date (`22nd November 2026`). */
export function availabilityParts(date: string) {
  const month = monthName(date.slice(0, 7))
  const day = Number(date.slice(8, 10))
  const year = date.slice(0, 4)
  return {
    available_from_year: year,
    available_from_day: String(day),
    available_from_month: month,
    available_from_hr: `${ordinal(day)} ${month} ${year}`,
  }
}
