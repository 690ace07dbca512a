// The one clock of an app instance, and the only place that reads the machine's time.
// A real clock follows the machine (shifted by advance/set); a virtual one stands
// still until told to move, so tests can cross a 15-minute window without waiting.
export type ClockMode = 'real' | 'virtual'

export interface Clock {
  readonly mode: ClockMode
  /** Epoch milliseconds. */
  now(): number
  /** Moves time forward (or back, with a negative number) by whole or fractional seconds. */
  advance(seconds: number): void
  /** Jumps to an epoch in milliseconds. */
  set(ms: number): void
}

export function createClock(mode: ClockMode, startMs: number): Clock {
  if (mode === 'virtual') {
    let current = startMs
    return {
      mode,
      now: () => current,
      advance: (seconds) => {
        current += Math.round(seconds * 1000)
      },
      set: (ms) => {
        current = ms
      },
    }
  }
  let offset = 0
  return {
    mode,
    now: () => Date.now() + offset,
    advance: (seconds) => {
      offset += Math.round(seconds * 1000)
    },
    set: (ms) => {
      offset = ms - Date.now()
    },
  }
}
