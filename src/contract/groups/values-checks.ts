// What the spec says inside a value, checked across the records fetched: fields derived
// from another field of the same record (a candidate's available_from_year, _month and
// _day from available_from), the same fact told twice (the sectors of sector_disciplines
// among sectors), and display text whose contents the spec names (a vacancy's salary:
// "display text with currency symbol and unit"). Each problem names the record.
import { isDate } from '../../../schemas/formats.js'
import type { Asserter } from '../checks.js'
import { Skip } from '../checks.js'
import { rec, str, type Rec } from '../records.js'
import { monthNumber, short } from '../validate.js'

const MAX_PROBLEMS = 10

function report(a: Asserter, problems: string[], checked: number, message: string): void {
  if (checked === 0) throw new Skip('no record fetched gives the fields to compare')
  a.none(problems.length > MAX_PROBLEMS ? [...problems.slice(0, MAX_PROBLEMS), `... and ${problems.length - MAX_PROBLEMS} more`] : problems, `${checked} ${message}`)
}

/** available_from_year, _month and _day against available_from: the year, the month (named in any usual style) and the day number. */
export function availabilityAgrees(a: Asserter, candidates: readonly Rec[]): void {
  const problems: string[] = []
  let checked = 0
  for (const c of candidates) {
    const date = str(c.available_from)
    if (date === undefined || !isDate(date)) continue
    checked++
    const [year, month, day] = date.split('-') as [string, string, string]
    const who = `candidate ${String(c.id)} (available_from ${date})`
    if (c.available_from_year !== year) problems.push(`${who}: available_from_year is ${short(c.available_from_year)}, not "${year}"`)
    if (monthNumber(c.available_from_month) !== Number(month) - 1) problems.push(`${who}: available_from_month is ${short(c.available_from_month)}, not the name of month ${Number(month)}`)
    const given = str(c.available_from_day)
    if (given === undefined || !/^[0-9]{1,2}$/.test(given) || Number(given) !== Number(day)) problems.push(`${who}: available_from_day is ${short(c.available_from_day)}, not day ${Number(day)}`)
  }
  report(a, problems, checked, 'candidates give available_from_year, _month and _day as available_from says')
}

const sectorOf = (value: string) => (value.includes('::') ? (value.split('::')[0] as string) : value)

/** Every sector sector_disciplines names (the part before ::, or the value alone) is among the candidate's sectors. */
export function sectorsAgree(a: Asserter, candidates: readonly Rec[]): void {
  const problems: string[] = []
  let checked = 0
  for (const c of candidates) {
    if (!Array.isArray(c.sector_disciplines) || !Array.isArray(c.sectors) || c.sector_disciplines.length === 0) continue
    checked++
    const sectors = new Set(c.sectors.filter((s): s is string => typeof s === 'string').map((s) => s.toLowerCase()))
    const missing = c.sector_disciplines.filter((v): v is string => typeof v === 'string').map(sectorOf).filter((s) => !sectors.has(s.toLowerCase()))
    if (missing.length > 0) problems.push(`candidate ${String(c.id)}: sector_disciplines names ${[...new Set(missing)].map((m) => JSON.stringify(m)).join(', ')}, which sectors ${short(c.sectors)} does not hold`)
  }
  report(a, problems, checked, 'candidates name in sector_disciplines only sectors their sectors hold')
}

const CURRENCY = /\p{Sc}/u
const UNIT = /\b(hour|hr|hourly|year|yr|annum|annual|p\.?\s?a\.?|week|wk|weekly|month|monthly|mo|day|daily)\b/i

/** A vacancy's salary is "display text with currency symbol and unit". */
export function salaryDisplayed(a: Asserter, applications: readonly Rec[]): void {
  const problems: string[] = []
  let checked = 0
  for (const application of applications) {
    const salary = str(rec(application.vacancy).salary)
    if (salary === undefined || salary.trim() === '') continue
    checked++
    const lacks = [CURRENCY.test(salary) ? '' : 'a currency symbol', UNIT.test(salary) ? '' : 'a unit'].filter((l) => l !== '')
    if (lacks.length > 0) problems.push(`application ${String(application.id)}: the vacancy's salary ${JSON.stringify(salary)} lacks ${lacks.join(' and ')}`)
  }
  report(a, problems, checked, 'vacancy salaries show a currency symbol and a unit')
}
