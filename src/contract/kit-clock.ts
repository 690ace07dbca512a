// The kit's time: the wall clock for the ledger, job references and Retry-after
// waits, behind an interface so tests can run a ledger across "hours" in no time.
// The machine's time is read through src/core/clock.ts, as everywhere in the project.
import { createClock } from '../core/clock.js'

export interface KitClock {
  /** Epoch milliseconds. */
  now(): number
  /** Resolves after `ms`, or rejects when the signal aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>
}

export function realKitClock(): KitClock {
  // a real clock ignores its start: it follows the machine
  const clock = createClock('real', 0)
  return {
    now: () => clock.now(),
    sleep: (ms, signal) =>
      new Promise<void>((resolve, reject) => {
        if (signal?.aborted) return reject(signal.reason)
        const timer = setTimeout(() => {
          signal?.removeEventListener('abort', onAbort)
          resolve()
        }, ms)
        const onAbort = () => {
          clearTimeout(timer)
          reject(signal?.reason)
        }
        signal?.addEventListener('abort', onAbort, { once: true })
      }),
  }
}
