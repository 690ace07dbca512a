// What a run learns where the spec is silent or the service says more than the
// schemas: drift (fields the schemas lack), page size, the last page's next_page, error
// bodies, the job/fields shape, download content types, what an unknown id answers,
// which field `since` compares, month name style, metric labels and constrained values
// beyond the spec's, the HTTP status of successes other than 200, and what a check no
// sentence of the spec backs found. Observations
// warn; they never fail a run.

export const TOPICS = [
  'drift',
  'month-style',
  'metric-label',
  'field-values',
  'page-size',
  'last-page',
  'order',
  'since-field',
  'error-body',
  'unknown-id',
  'job-fields',
  'download',
  'auth',
  'rate-limit',
  'jobs',
  'links',
  // a success answered with a 2xx other than 200 (groups/wire-checks.ts)
  'status',
  // what a check no sentence of the spec backs found (src/contract/rules.ts, kind: 'observation')
  'unbacked',
] as const
export type Topic = (typeof TOPICS)[number]

export interface Observation {
  topic: Topic
  /** The endpoint it was seen on, as the checks are grouped (`candidates/list`). */
  endpoint: string
  /** One line for the screen. */
  summary: string
  /** Anything worth keeping for the report: a header, a body, a list of fields. */
  details?: unknown
}

export class Observations {
  readonly #seen = new Map<string, Observation>()

  add(observation: Observation): void {
    const key = `${observation.topic}\u0000${observation.endpoint}\u0000${observation.summary}`
    if (!this.#seen.has(key)) this.#seen.set(key, observation)
  }

  list(): Observation[] {
    return [...this.#seen.values()].sort((a, b) => TOPICS.indexOf(a.topic) - TOPICS.indexOf(b.topic))
  }
}
