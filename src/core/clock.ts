// The one clock of an app instance, and the only place that reads the machine's time.
// A real clock follows the machine (shifted by advance/set); a virtual one stands
// still until told to move, so tests can cross a 15-minute window without waiting.
// Its time stays within years 1970-9999, the years a `YYYY-MM-DD` timestamp can hold
// after the epoch; a move outside is refused and leaves the clock where it was.
import { BoardInputError } from './errors.js'

export type ClockMode = 'real' | 'virtual'

/** 1970-01-01 00:00:00 and 9999-12-31 23:59:59 UTC, in epoch milliseconds. */
export const CLOCK_MIN_MS = 0
export const CLOCK_MAX_MS = Date.UTC(9999, 11, 31, 23, 59, 59)

export interface Clock {
  readonly mode: ClockMode
  /** Epoch milliseconds. */
  now(): number
  /** Moves time forward (or back, with a negative number) by whole or fractional seconds. */
  advance(seconds: number): void
  /** Jumps to an epoch in milliseconds. */
  set(ms: number): void
}

/** The time, checked to lie in the clock's range; `field` names the input it came from. */
function inRange(ms: number, field: string): number {
  if (!Number.isFinite(ms) || ms < CLOCK_MIN_MS || ms > CLOCK_MAX_MS) {
    throw new BoardInputError(field, `The clock's time must lie between 1970-01-01 00:00:00 and 9999-12-31 23:59:59 (UTC); ${field} would put it outside.`)
  }
  return Math.round(ms)
}

function step(seconds: number): number {
  if (typeof seconds !== 'number' || !Number.isFinite(seconds)) {
    throw new BoardInputError('seconds', `The seconds to advance must be a finite number, not ${String(seconds)}.`)
  }
  return Math.round(seconds * 1000)
}

export function createClock(mode: ClockMode, startMs: number): Clock {
  inRange(startMs, 'now')
  if (mode === 'virtual') {
    let current = startMs
    return {
      mode,
      now: () => current,
      advance: (seconds) => {
        current = inRange(current + step(seconds), 'seconds')
      },
      set: (ms) => {
        current = inRange(ms, 'now')
      },
    }
  }
  let offset = 0
  return {
    mode,
    now: () => Date.now() + offset,
    advance: (seconds) => {
      const moved = Date.now() + offset + step(seconds)
      inRange(moved, 'seconds')
      offset = moved - Date.now()
    },
    set: (ms) => {
      offset = inRange(ms, 'now') - Date.now()
    },
  }
}
