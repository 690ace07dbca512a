// The contract kit's ledger file (--ledger), kept by CI between runs: when each full
// request was last made and when its rate-limit window opens again; which write checks
// each deployment had, and when (they take turns across runs); jobs a run could not
// delete yet (the next run deletes them first); and a job each deployment has deleted
// (the checks of operations after delete use it); when each run with writes started,
// so that --within N can tell which write turns no run of the last N made; and when each
// walk of a list (src/contract/walk.ts) was last read in full, so that the walks a run
// cannot afford in full take turns; and the last of the links each rotation of
// src/contract/in-turn.ts took, so that the next run takes the ones after it.
import type { JSONSchema } from 'json-schema-to-ts'
import { id } from './common.js'

export const LEDGER_KIND = 'jobboard-kit contract ledger'

const time = { type: 'string', format: 'date-time' } as const

export const ledgerEntry = {
  type: 'object',
  additionalProperties: false,
  required: ['at', 'until'],
  properties: {
    at: { ...time, description: 'When the request was made' },
    until: { ...time, description: 'When it may be made again' },
  },
} as const satisfies JSONSchema

export const pendingJob = {
  type: 'object',
  additionalProperties: false,
  required: ['deployment', 'id', 'reference', 'since', 'why'],
  properties: {
    deployment: { type: 'string', minLength: 1, description: '`<user> <base URL>`' },
    id,
    reference: { type: 'string' },
    since: { ...time, description: 'When the run that made it ended' },
    why: { type: 'string', description: 'Why it could not be deleted then' },
  },
} as const satisfies JSONSchema

export const ledgerFile = {
  type: 'object',
  additionalProperties: false,
  required: ['kind', 'version', 'requests'],
  properties: {
    kind: { const: LEDGER_KIND },
    version: { const: 1 },
    /** By `<user> <METHOD> <full URL>`. */
    requests: { type: 'object', additionalProperties: ledgerEntry },
    /** By deployment (`<user> <base URL>`), then by write check: when it was last made. */
    writes: { type: 'object', additionalProperties: { type: 'object', additionalProperties: time } },
    /** Jobs a run made and could not delete: the next run deletes them first. */
    pending: { type: 'array', items: pendingJob },
    /** By deployment: a job the kit deleted, for the checks of operations after delete. */
    deleted: { type: 'object', additionalProperties: id },
    /** By deployment: when each run with writes started, the newest last (--require-complete --within N reads the last N). */
    runs: { type: 'object', additionalProperties: { type: 'array', items: time } },
    /** By deployment, then by walk (`applications/list since`): when a run last walked it in full. */
    walks: { type: 'object', additionalProperties: { type: 'object', additionalProperties: time } },
    /** By deployment, then by rotation (`candidate files`): the last link a run downloaded or followed in turn. */
    inTurn: { type: 'object', additionalProperties: { type: 'object', additionalProperties: { type: 'string', minLength: 1 } } },
  },
} as const satisfies JSONSchema
