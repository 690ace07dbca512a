// The job lifecycle: job/add, close, expire, repost, delete, and a job's state at the
// board's current time (closed once its closing date passes when it closes automatically,
// expired once its expiry date passes; docs/behaviour.md). Deleted ids are remembered, so
// a deleted job answers "has been deleted" and its id is never given again.
import { id as idSchema, jobInput } from '../../../schemas/index.js'
import { splitIndustry } from '../../../schemas/values.js'
import { CLOCK_MAX_MS } from '../../core/clock.js'
import { BoardError, boardError } from '../../core/errors.js'
import { addMonth, formatMinute, monthOfTimestamp } from '../../core/time.js'
import type { JobInput, StoredJob } from '../../core/types.js'
import { checkInput } from './gate.js'
import { COUNTED_METRICS } from './metric-counts.js'
import type { BoardParts } from './parts.js'

const MAX_ID = idSchema.maximum

export type JobOperation = 'close' | 'expire' | 'repost' | 'delete'

/** What a job page shows: the job and its state at the store's current time. */
export interface JobView {
  job: StoredJob
  state: StoredJob['state']
}

/** The parts of a board the lifecycle reads and writes. */
export type JobBoard = Pick<BoardParts, 'jobs' | 'clock' | 'lists' | 'locations' | 'validators' | 'metrics' | 'now'>

export class JobLifecycle {
  readonly #deleted = new Set<number>()
  #nextId = 1

  constructor(private readonly board: JobBoard) {}

  /** The id the next job gets. */
  get nextId(): number {
    return this.#nextId
  }

  /** The next job gets at least this id: past every job there is, and every id given before. */
  startAt(id: number): void {
    this.#nextId = Math.max(this.#nextId, id)
  }

  /** Deleted job ids, ascending. */
  deletedIds(): number[] {
    return [...this.#deleted].sort((a, b) => a - b)
  }

  isDeleted(id: number): boolean {
    return this.#deleted.has(id)
  }

  /** Restores the deleted ids of a saved board. */
  markDeleted(ids: Iterable<number>): void {
    for (const id of ids) this.#deleted.add(id)
  }

  state(job: StoredJob): StoredJob['state'] {
    const now = this.board.now()
    if (job.state === 'unpublished') return 'unpublished'
    if (job.close_automatically === 1 && job.closing_date !== undefined && `${job.closing_date}:00` <= now) return 'unpublished'
    if (job.state === 'expired') return 'expired'
    if (job.expiry_date !== undefined && `${job.expiry_date}:00` <= now) return 'expired'
    return 'published'
  }

  view(id: number): JobView | undefined {
    const job = this.board.jobs.get(id)
    return job && { job, state: this.state(job) }
  }

  #live(id: number): StoredJob {
    const job = this.board.jobs.get(id)
    if (job) return job
    if (this.#deleted.has(id)) throw new BoardError('NOT_FOUND', `Job ${id} has been deleted.`)
    throw boardError.notFound('Job', id)
  }

  add(given: JobInput): StoredJob {
    const { board } = this
    const input = checkInput<JobInput>(board.validators, jobInput, given)
    const now = board.now()
    const id = this.#nextId
    if (id > MAX_ID) throw boardError.invalidField(`No job id is left: the board has given every id up to ${MAX_ID}.`, 'id')
    const { sector, subSector } = splitIndustry(input.job_industry, board.lists.job_industry)
    const place = board.locations.find((l) => l.name === input.job_location)
    const job = board.jobs.insert(id, {
      ...input,
      ...(input.job_latitude === undefined && place ? { job_latitude: place.latitude, job_longitude: place.longitude } : {}),
      id,
      sector,
      sub_sector: subSector ?? '',
      state: input.published === 1 ? 'published' : 'unpublished',
      created_at: now,
      updated_at: now,
    })
    this.#nextId = id + 1
    board.metrics.add(COUNTED_METRICS.jobs, monthOfTimestamp(now))
    board.metrics.add('Job submissions', monthOfTimestamp(now))
    return job
  }

  apply(operation: JobOperation, id: number, closingDate?: string): StoredJob {
    const { jobs, clock } = this.board
    const job = this.#live(id)
    const now = this.board.now()
    const state = this.state(job)
    switch (operation) {
      case 'delete':
        jobs.delete(id)
        this.#deleted.add(id)
        return job
      case 'close':
        return jobs.replace(id, { ...job, published: 0, state: 'unpublished', updated_at: now })
      case 'expire':
        // a closed job stays closed: expiring it does not bring its page back
        if (state === 'unpublished') return jobs.replace(id, { ...job, updated_at: now })
        return jobs.replace(id, { ...job, state: 'expired', expiry_date: formatMinute(clock.now()), updated_at: now })
      case 'repost': {
        // in the clock's last month a month on would be year 10000, which no job date can hold
        const monthOn = formatMinute(Math.min(addMonth(clock.now(), 1), CLOCK_MAX_MS))
        const closing = closingDate ?? monthOn
        const expiry = closingDate ?? monthOn
        return jobs.replace(id, { ...job, published: 1, state: 'published', closing_date: closing, expiry_date: expiry, updated_at: now })
      }
    }
  }
}
