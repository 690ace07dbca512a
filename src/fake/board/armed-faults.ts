// Faults a test arms on a board (POST /__mock/faults, an activity's outage): the next
// matching requests get an error status, a delay, a dropped connection or a body cut
// short, instead of (or before) the real answer (src/fake/http/fault-answers.ts answers them).
// Clearing them (faults.clear(), a reset, a restore) also releases the requests their
// delays hold: those then answer at once.
import type { Fault, FaultInput } from '../../core/types.js'

export interface ArmedFault extends Fault {
  id: number
  /** How many more requests it applies to. */
  remaining: number
  /** The seconds its Retry-After says, worked out as it answers (an activity's outage: the rest of it). */
  retryAfter?: () => number
}

export class Faults {
  #armed: ArmedFault[] = []
  #next = 1
  /** Made when a held delay first asks for it: aborting one (a DOMException and its stack) on every board's start cost each account as much as the rest of its board. */
  #release: AbortController | undefined

  /** Aborted when the faults are cleared: what a held delay waits on besides its timer. */
  get released(): AbortSignal {
    this.#release ??= new AbortController()
    return this.#release.signal
  }

  add(fault: FaultInput, retryAfter?: () => number): ArmedFault {
    const armed = { ...fault, times: fault.times ?? 1, id: this.#next++, remaining: fault.times ?? 1, ...(retryAfter ? { retryAfter } : {}) }
    this.#armed.push(armed)
    return armed
  }

  /** Whether any fault is armed (the fast path leaves every request to the slow one then). */
  get armed(): boolean {
    return this.#armed.length > 0
  }

  list(): ArmedFault[] {
    return this.#armed.map(({ retryAfter: _, ...f }) => ({ ...f }))
  }

  /** Disarms one fault (an activity's outage ending); requests its delay holds go on waiting it out. */
  remove(id: number): void {
    this.#armed = this.#armed.filter((f) => f.id !== id)
  }

  clear(): void {
    this.#armed = []
    // only a delay that asked for the signal can be waiting on it
    this.#release?.abort()
    this.#release = undefined
  }

  /** The first armed fault for this request, used up by one; undefined when none applies. */
  take(method: string, url: string): ArmedFault | undefined {
    if (this.#armed.length === 0) return undefined
    const path = url.split('?')[0] as string
    const fault = this.#armed.find((f) => (f.method === undefined || f.method.toUpperCase() === method) && matches(f.path, path))
    if (!fault) return undefined
    fault.remaining -= 1
    if (fault.remaining <= 0) this.#armed = this.#armed.filter((f) => f !== fault)
    return { ...fault }
  }
}

function matches(pattern: string, path: string): boolean {
  return pattern.endsWith('*') ? path.startsWith(pattern.slice(0, -1)) : pattern === path
}

/** How the journal names what a fault did. */
export const faultKind = (fault: ArmedFault) =>
  fault.drop ? 'drop' : fault.truncate ? 'truncate' : fault.status !== undefined ? `status ${fault.status}` : `delay ${fault.delayMs ?? 0} ms`
