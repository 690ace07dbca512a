// Faults a test arms (POST /__mock/faults): the next matching requests get an error
// status, a delay, a dropped connection or a body cut short, instead of (or before)
// the real answer. Clearing them (faults.clear(), a reset, a restore) also releases the
// requests their delays hold: those then answer at once.
import type { Fault, FaultInput } from '../core/types.js'

export interface ArmedFault extends Fault {
  id: number
  /** How many more requests it applies to. */
  remaining: number
}

export class Faults {
  #armed: ArmedFault[] = []
  #next = 1
  #release = new AbortController()

  /** Aborted when the faults are cleared: what a held delay waits on besides its timer. */
  get released(): AbortSignal {
    return this.#release.signal
  }

  add(fault: FaultInput): ArmedFault {
    const armed = { ...fault, times: fault.times ?? 1, id: this.#next++, remaining: fault.times ?? 1 }
    this.#armed.push(armed)
    return armed
  }

  list(): ArmedFault[] {
    return this.#armed.map((f) => ({ ...f }))
  }

  clear(): void {
    this.#armed = []
    this.#release.abort()
    this.#release = new AbortController()
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
