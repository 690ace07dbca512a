// The steps the isolation properties draw: an API request (right or wrong password, a read
// or a write) or a control call, over HTTP or in process; the same vocabulary for two
// accounts of one fake (accounts-isolation) and two fakes of one shape (shared-app-isolation).
import fc from 'fast-check'
import type { Controller } from '../../src/fake/control-api.js'

export const JOB = {
  published: 1, featured: 0, job_title: 'Locum Vet', job_reference: 'L-1', job_industry: 'Veterinary Surgeon', job_telecommute: 'no',
  job_location: 'York', job_type: 'Full time', contract_type: 'Locum', job_description: 'Cover', contact_name: 'A', contact_email: 'a@example.com',
  salary_visible: '£50/h', salary_precise: '50', salary_unit: 'Per hour', salary_currency: 'GBP', require_cv: 0,
}

/** One step: an API request with the account's credentials (or a wrong password), or a control call on the account. */
export type Step =
  | { kind: 'api'; method: 'GET' | 'POST'; url: string; payload?: object; wrongPassword?: boolean }
  | { kind: 'control'; method: 'GET' | 'POST' | 'DELETE'; path: string; payload?: object }
  | { kind: 'in-process'; call: 'advance' | 'fault' | 'candidate' | 'clear-requests' }

export const step: fc.Arbitrary<Step> = fc.oneof(
  fc.constantFrom<Step>(
    { kind: 'api', method: 'GET', url: '/api/v1/candidates/list' },
    { kind: 'api', method: 'GET', url: '/api/v1/metrics/list' },
    { kind: 'api', method: 'GET', url: '/api/v1/job/fields' },
    { kind: 'api', method: 'GET', url: '/api/v1/applications/list?since=2026-11-01+00:00' },
    { kind: 'api', method: 'POST', url: '/api/v1/job/add', payload: JOB },
    { kind: 'api', method: 'GET', url: '/api/v1/metrics/list', wrongPassword: true },
    { kind: 'control', method: 'POST', path: 'faults', payload: { path: '/api/v1/*', status: 503, times: 2 } },
    { kind: 'control', method: 'DELETE', path: 'faults' },
    { kind: 'control', method: 'DELETE', path: 'requests' },
    { kind: 'control', method: 'DELETE', path: 'rate-limits' },
    { kind: 'control', method: 'POST', path: 'reset', payload: {} },
    { kind: 'control', method: 'POST', path: 'candidates', payload: { name: 'Ada Lovelace' } },
    { kind: 'control', method: 'POST', path: 'job-fields', payload: { retire: { job_type: ['Night time'] } } },
    { kind: 'control', method: 'GET', path: 'verdict' },
    { kind: 'in-process', call: 'advance' },
    { kind: 'in-process', call: 'fault' },
    { kind: 'in-process', call: 'candidate' },
    { kind: 'in-process', call: 'clear-requests' },
  ),
  fc.integer({ min: 1, max: 60 }).map<Step>((id) => ({ kind: 'api', method: 'GET', url: `/api/v1/candidates/details/${id}` })),
  fc.integer({ min: 1, max: 20 }).map<Step>((id) => ({ kind: 'api', method: 'POST', url: '/api/v1/job/close', payload: { id } })),
  fc.integer({ min: 1, max: 4000 }).map<Step>((seconds) => ({ kind: 'control', method: 'POST', path: 'clock/advance', payload: { seconds } })),
)


/** Everything of a board another's request could disturb: its saved state, clock, journal, rate-limit windows and faults. */
export const snapshotOf = (own: Controller): string =>
  JSON.stringify({
    state: own.exportState({ form: 'compact' }),
    now: own.clock.now(),
    journal: own.requests(),
    windows: own.rateLimits(),
    faults: own.faults(),
  })
