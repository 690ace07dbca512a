// Plays a loaded activity on a board as its clock passes each step: the control API's
// clock moves (advance, set) stop at each step's time on the way (each event happens at
// its own time), a real or sped-up clock wakes the player at the next step, and every
// request first lets the player catch up, so a request at time t sees every event up to t.
// A step the board refuses when it comes (a candidate id taken meanwhile) is skipped and
// kept as a failure that GET /__mock/activity shows: a day goes on.
import { MARKETING_ACTIONS } from '../../../schemas/values.js'
import type { Clock } from '../../core/clock.js'
import { formatTimestamp } from '../../core/time.js'
import type { Faults } from '../board/armed-faults.js'
import type { Store } from '../store/store.js'
import { nextFieldValues } from '../job-fields.js'
import type { ActivityStep, LoadedActivity } from './load.js'

const [APPROVED, REVOKED] = MARKETING_ACTIONS

/** What the player has done: GET /__mock/activity. */
export interface ActivityStatus {
  name: string
  source: string
  /** The board time the day started at. */
  start: string
  /** The board time of its last step: advancing the clock there plays the whole day. */
  end: string
  played: number
  pending: number
  /** The next step's time and event, if any is left. */
  next?: { at: string; event: string; index: number }
  failures: Array<{ at: string; event: string; index: number; message: string }>
}

/** The parts of a board a player plays on. */
export interface Stage {
  clock: Clock
  store: Store
  faults: Faults
}

export class ActivityPlayer {
  readonly #activity: LoadedActivity
  readonly #stage: Stage
  readonly #startMs: number
  #next = 0
  #stopped = false
  #cancelWake: () => void = () => {}
  /** The fault each outage (by event index) armed, to disarm at its end. */
  readonly #armed = new Map<number, number>()
  readonly #failures: ActivityStatus['failures'] = []

  constructor(activity: LoadedActivity, stage: Stage) {
    this.#activity = activity
    this.#stage = stage
    this.#startMs = stage.clock.now()
    this.#catchUp()
  }

  /** The board time of the next step; Infinity when none is left (or the player stopped). */
  get nextAt(): number {
    const step = this.#activity.steps[this.#next]
    return step === undefined || this.#stopped ? Number.POSITIVE_INFINITY : this.#startMs + step.offsetMs
  }

  /** Each step's board time (epoch ms), event and whether it has been played: the /__mock/ui timeline's ticks. */
  steps(): Array<{ atMs: number; event: string; played: boolean }> {
    return this.#activity.steps.map((step, i) => ({ atMs: this.#startMs + step.offsetMs, event: step.event.event, played: i < this.#next }))
  }

  /** Plays every step due by now: what each request asks first (a timer may lag behind a fast clock). */
  catchUp(): void {
    if (this.nextAt <= this.#stage.clock.now()) this.#catchUp()
  }

  /**
   * Moves the clock to `targetMs`, stopping at each step due on the way to play it at its
   * own time. A move back plays nothing (a step is played once).
   */
  moveTo(targetMs: number): void {
    const { clock } = this.#stage
    while (this.nextAt <= targetMs) {
      const at = this.nextAt
      if (at > clock.now()) clock.set(at)
      this.#playDue(at)
    }
    clock.set(targetMs)
    this.#schedule()
  }

  /** Ends the day: no step plays after this, and its timer is cleared (a reset, a restore, close). */
  stop(): void {
    this.#stopped = true
    this.#cancelWake()
  }

  status(): ActivityStatus {
    const step = this.#stopped ? undefined : this.#activity.steps[this.#next]
    return {
      name: this.#activity.name,
      source: this.#activity.source,
      start: formatTimestamp(this.#startMs),
      end: formatTimestamp(this.#startMs + (this.#activity.steps.at(-1)?.offsetMs ?? 0)),
      played: this.#next,
      pending: this.#stopped ? 0 : this.#activity.steps.length - this.#next,
      ...(step ? { next: { at: formatTimestamp(this.#startMs + step.offsetMs), event: step.event.event, index: step.index } } : {}),
      failures: this.#failures.map((f) => ({ ...f })),
    }
  }

  #catchUp(): void {
    this.#playDue(this.#stage.clock.now())
    this.#schedule()
  }

  #playDue(untilMs: number): void {
    const steps = this.#activity.steps
    while (!this.#stopped && this.#next < steps.length && this.#startMs + (steps[this.#next] as ActivityStep).offsetMs <= untilMs) {
      const step = steps[this.#next] as ActivityStep
      this.#next += 1
      try {
        this.#play(step)
      } catch (error) {
        this.#failures.push({
          at: formatTimestamp(this.#startMs + step.offsetMs),
          event: step.event.event,
          index: step.index,
          message: (error as Error).message,
        })
      }
    }
  }

  #schedule(): void {
    this.#cancelWake()
    const at = this.nextAt
    if (at === Number.POSITIVE_INFINITY) return
    this.#cancelWake = this.#stage.clock.wake(at, () => this.#catchUp())
  }

  #play(step: ActivityStep): void {
    const { store, faults, clock } = this.#stage
    const { event } = step
    switch (event.event) {
      case 'new-candidate':
        store.addCandidate(event.record ?? {})
        return
      case 'update-candidate':
        store.updateCandidate({ ...(event.id === undefined ? {} : { id: event.id }), changes: event.changes })
        return
      case 'new-application':
        store.addApplication(event.record ?? {})
        return
      case 'burst':
        store.addApplication(event.record ?? {})
        return
      case 'new-timesheet':
        store.addTimesheet(event.record ?? {})
        return
      case 'marketing-approval':
        store.addMarketing({ ...event.record, action: APPROVED })
        return
      case 'marketing-revocation':
        store.addMarketing({ ...event.record, action: REVOKED })
        return
      case 'job-fields':
        store.setFieldValues(nextFieldValues(store, { ...(event.retire ? { retire: event.retire } : {}), ...(event.add ? { add: event.add } : {}) }))
        return
      case 'outage':
      case 'timeouts': {
        if (step.part === 'end') {
          const id = this.#armed.get(step.index)
          if (id !== undefined) faults.remove(id)
          this.#armed.delete(step.index)
          return
        }
        const endMs = this.#startMs + (this.#activity.steps.find((s) => s.index === step.index && s.part === 'end')?.offsetMs ?? step.offsetMs)
        const method = event.method === undefined ? {} : { method: event.method }
        const status = (event as { status?: number }).status ?? 503
        const fault =
          event.event === 'outage'
            ? faults.add(
                {
                  path: event.path,
                  ...method,
                  status,
                  body: { status, message: `The service is unavailable: an outage until ${formatTimestamp(endMs)}.` },
                  times: 1_000_000,
                },
                // the rest of the outage as it answers; a client waiting in real time on a sped-up clock waits it divided by the speed
                () => Math.max(1, Math.ceil((endMs - clock.now()) / 1000 / clock.speed)),
              )
            : faults.add({ path: event.path, ...method, delayMs: (event as { delayMs?: number }).delayMs ?? 60_000, times: 1_000_000 })
        this.#armed.set(step.index, fault.id)
        return
      }
    }
  }
}
