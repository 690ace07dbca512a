// The job the write checks add (--writes): one that fits job/add's rules with the board's
// current values (job/fields), clearly a test job, its constrained values taken in turn so
// that nightly runs try every form job/fields offers (the request matrix's FIELD_FORMS).
import type { JobInput } from '../core/types.js'
import type { RunContext } from './context.js'
import { FIELD_FORMS, formCellId, formLedgerName } from './matrix.js'

export const DAY_MS = 86_400_000

type FormField = (typeof FIELD_FORMS)[number]['field']
export const FORM_FIELDS = [...new Set(FIELD_FORMS.map((f) => f.field))]
/** Where job/fields' values of each constrained field are (salary_currency's list is salary_currencies). */
export const VALUES_OF = { job_industry: 'job_industry', job_type: 'job_type', contract_type: 'contract_type', salary_unit: 'salary_unit', salary_currency: 'salary_currencies', job_telecommute: 'job_telecommute' } as const satisfies Record<FormField, string>


/** The value job/fields lists that suits a test job, or the list's first. */
const choose = (list: readonly string[], liked: string) => (list.includes(liked) ? liked : (list[0] as string))

/** The request matrix's forms of a constrained field that job/fields still offers. */
export const formsOffered = (field: FormField, list: readonly string[]) => FIELD_FORMS.filter((f) => f.field === field && list.includes(f.value))

/**
 * A job that fits job/add's rules with the board's current values, clearly a test job.
 * `rotate`: the constrained values are taken in turn by the day of the run, so that
 * nightly runs try every form job/fields offers (a sector alone and `<Sector>/<Sub_sector>`,
 * every unit and type) within the one valid add a night allows. A number `n` instead: the
 * n-th form of each field (cycling), so that adds 0, 1, … try every form of every field in
 * as many adds as the field with the most forms has (a run with no window to spend).
 */
export function contractJob(ctx: RunContext, reference: string, rotate: boolean | number = false): JobInput {
  const values = ctx.values
  const night = Math.floor(ctx.clock.now() / DAY_MS)
  const tried = ctx.ledger.writesOf(ctx.deployment)
  const pick = (list: readonly string[], liked: string, salt: number, field: FormField) => {
    if (rotate === false || list.length === 0) return choose(list, liked)
    const forms = formsOffered(field, list)
    if (typeof rotate === 'number') return forms.length === 0 ? choose(list, liked) : (forms[rotate % forms.length] as (typeof forms)[number]).value
    // the one tried longest ago (or never) first
    if (forms.length === 0) return list[(night + salt) % list.length] as string
    const when = (f: (typeof forms)[number]) => tried[formLedgerName(formCellId(f))] ?? -Infinity
    const oldest = Math.min(...forms.map(when))
    const due = forms.filter((f) => when(f) === oldest)
    return (due[(night + salt) % due.length] as (typeof forms)[number]).value
  }
  return {
    published: 1,
    featured: 0,
    job_title: 'Contract check (jobboard-kit): please ignore',
    job_reference: reference,
    job_industry: pick(values.job_industry, values.job_industry[0] as string, 0, 'job_industry') as JobInput['job_industry'],
    job_telecommute: pick(values.job_telecommute, 'no', 1, 'job_telecommute') as JobInput['job_telecommute'],
    job_location: 'Leeds (contract check)',
    job_latitude: 53.8008,
    job_longitude: -1.5491,
    job_type: pick(values.job_type, 'Full time', 2, 'job_type') as JobInput['job_type'],
    contract_type: pick(values.contract_type, 'Permanent', 3, 'contract_type') as JobInput['contract_type'],
    job_description: 'Made by the jobboard-kit contract check, which deletes it before its run ends.',
    contact_name: 'jobboard-kit contract check',
    contact_email: 'contract-check@example.com',
    salary_visible: '40,000 per year',
    salary_precise: '40000',
    salary_unit: pick(values.salary_unit, 'Per year', 4, 'salary_unit') as JobInput['salary_unit'],
    salary_currency: pick(values.salary_currencies, values.salary_currencies[0] as string, 5, 'salary_currency') as JobInput['salary_currency'],
    require_cv: 0,
  }
}
