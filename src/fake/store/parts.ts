// The parts of a board that its operations read and write: the Store holds them, and the
// job lifecycle (job-lifecycle.ts) and the adds (adds.ts) each name the ones they use, so that they
// depend on these parts and not on the Store that calls them.
import type { Clock } from '../../core/clock.js'
import type { DeepReadonly } from '../../core/freeze.js'
import type { Application, Candidate, MarketingRecord, PredefinedLocation, StoredFile, StoredJob, Timesheet } from '../../core/types.js'
import type { Validators } from '../../core/validation.js'
import type { BoardLists, LoadedScenario } from '../scenario.js'
import type { Collection } from './collection.js'
import type { Links } from './record-links.js'
import type { Metrics } from './metric-counts.js'

export interface BoardParts {
  readonly scenario: LoadedScenario
  readonly lists: BoardLists
  readonly locations: readonly DeepReadonly<PredefinedLocation>[]
  /** Links on the store's own origin: the public base URL, or the CLI's default address. */
  readonly links: Links
  readonly clock: Clock
  readonly validators: Validators
  readonly jobs: Collection<StoredJob>
  readonly candidates: Collection<Candidate>
  readonly applications: Collection<Application>
  readonly timesheets: Collection<Timesheet>
  readonly marketing: Collection<MarketingRecord>
  readonly files: Record<'resume' | 'document', Collection<StoredFile>>
  metrics: Metrics
  /** The clock's time as a timestamp. */
  now(): string
}
