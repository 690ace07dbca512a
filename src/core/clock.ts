// The one clock of an app instance, and the only place that reads the machine's time.
// A real clock follows the machine (shifted by advance/set); a virtual one stands
// still until told to move, so tests can cross a 15-minute window without waiting.
// A real clock may run faster than the machine's (speed N: N board seconds per real
// second), so a client living at real time goes through a working day in a minute.
// wake() is the one timer of the board: it fires when the board's time reaches a moment.
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
  /** Board seconds per real second: 1, or more for a sped-up real clock. */
  readonly speed: number
  /**
   * Calls `callback` once when the board's time reaches `atMs` (a real clock's timer,
   * unref'd so it never keeps the process alive), or never for a virtual clock, which
   * only moves when told. Answers the function that cancels it.
   */
  wake(atMs: number, callback: () => void): () => void
}

/** The longest a Node timer waits; a later moment is waited for in steps. */
const MAX_TIMER_MS = 2_147_483_647

/** The time, checked to lie in the clock's range; `field` names the input it came from. */
export function inRange(ms: number, field: string): number {
  if (!Number.isFinite(ms) || ms < CLOCK_MIN_MS || ms > CLOCK_MAX_MS) {
    throw new BoardInputError(field, `The clock's time must lie between 1970-01-01 00:00:00 and 9999-12-31 23:59:59 (UTC); ${field} would put it outside.`)
  }
  return Math.round(ms)
}

/** Seconds as whole milliseconds, refused when not a finite number. */
export function step(seconds: number): number {
  if (typeof seconds !== 'number' || !Number.isFinite(seconds)) {
    throw new BoardInputError('seconds', `The seconds to advance must be a finite number, not ${String(seconds)}.`)
  }
  return Math.round(seconds * 1000)
}

export function createClock(mode: ClockMode, startMs: number, speed = 1): Clock {
  inRange(startMs, 'now')
  if (mode === 'virtual') {
    let current = startMs
    return {
      mode,
      speed: 1,
      wake: () => () => {},
      now: () => current,
      advance: (seconds) => {
        current = inRange(current + step(seconds), 'seconds')
      },
      set: (ms) => {
        current = inRange(ms, 'now')
      },
    }
  }
  if (!Number.isFinite(speed) || speed < 1) throw new BoardInputError('clockSpeed', `The clock's speed must be a finite number of at least 1, not ${String(speed)}.`)
  // the board's time at a real moment: it runs `speed` times as fast from there
  let anchorBoard = Date.now()
  let anchorReal = anchorBoard
  const now = () => Math.min(CLOCK_MAX_MS, anchorBoard + Math.round((Date.now() - anchorReal) * speed))
  const anchor = (ms: number) => {
    anchorBoard = ms
    anchorReal = Date.now()
  }
  const clock: Clock = {
    mode,
    speed,
    now,
    advance: (seconds) => {
      anchor(inRange(now() + step(seconds), 'seconds'))
    },
    set: (ms) => {
      anchor(inRange(ms, 'now'))
    },
    wake: (atMs, callback) => {
      let timer: NodeJS.Timeout | undefined
      const arm = () => {
        const wait = Math.ceil((atMs - now()) / speed)
        if (wait <= 0) {
          timer = undefined
          callback()
          return
        }
        // checked again when it fires: advance() and set() may have moved the board's time meanwhile
        timer = setTimeout(arm, Math.min(wait, MAX_TIMER_MS))
        timer.unref()
      }
      timer = setTimeout(arm, 0)
      timer.unref()
      return () => {
        if (timer !== undefined) clearTimeout(timer)
        timer = undefined
      }
    },
  }
  return clock
}
