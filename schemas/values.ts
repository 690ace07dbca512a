// The constrained values of the job fields, written once. The schemas, the fake's
// job/fields answer and the data generator all read them from here; a scenario may
// replace any list at run time (see bindFieldValues in src/validation.ts).

export const JOB_INDUSTRIES = [
  'Veterinary Surgeon',
  'Veterinary Surgeon/Small Animal Vet Surgeon',
  'Veterinary Surgeon/Mixed Animal Vet Surgeon',
  'Veterinary Surgeon/Equine Vet Surgeon',
  'Veterinary Surgeon/Night Vet Surgeon',
  'Veterinary Surgeon/Head Vet Surgeon',
  'Veterinary Surgeon/Veterinary Clinical Director',
  'Registered Veterinary Nurse',
  'Registered Veterinary Nurse/Small Animal RVN',
  'Registered Veterinary Nurse/Night RVN',
  'Registered Veterinary Nurse/Head Veterinary Nurse',
  'Veterinary Admin / Other',
  'Veterinary Admin / Other/Veterinary Receptionist',
  'Veterinary Admin / Other/Vet Care Assistant',
  'Veterinary Admin / Other/Veterinary Practice Manager',
] as const

export const JOB_TYPES = ['Full time', 'Part time', 'Night time'] as const
export const CONTRACT_TYPES = ['Permanent', 'Locum', 'Contract', 'Maternity cover', 'Temporary'] as const
export const SALARY_UNITS = ['Per hour', 'Per year', 'Per week', 'Per month'] as const
export const SALARY_CURRENCIES = ['GBP'] as const
export const JOB_TELECOMMUTE = ['yes', 'no'] as const

/** The constrained job fields by the name job/fields gives them (salary_currencies, not salary_currency). */
export const FIELD_VALUES = {
  job_industry: JOB_INDUSTRIES,
  job_type: JOB_TYPES,
  contract_type: CONTRACT_TYPES,
  salary_unit: SALARY_UNITS,
  salary_currencies: SALARY_CURRENCIES,
  job_telecommute: JOB_TELECOMMUTE,
} as const

export type FieldName = keyof typeof FIELD_VALUES
export const FIELD_NAMES = Object.keys(FIELD_VALUES) as FieldName[]

/** The current values of every constrained field; a scenario's may differ from FIELD_VALUES. */
export type FieldValues = { readonly [K in FieldName]: readonly string[] }

/** The job/add field that each constrained list governs. */
export const FIELD_OF_LIST: { readonly [K in FieldName]: string } = {
  job_industry: 'job_industry',
  job_type: 'job_type',
  contract_type: 'contract_type',
  salary_unit: 'salary_unit',
  salary_currencies: 'salary_currency',
  job_telecommute: 'job_telecommute',
}

/** Lists that are derived from the constrained ones rather than written down. */
export type DerivedName = 'sector_disciplines'

export interface IndustrySplit {
  sector: string
  subSector: string | null
}

/**
 * Splits a job_industry value into sector and sub-sector. A sector may itself hold
 * " / " (`Veterinary Admin / Other`), so the separator is the first slash that does not
 * stand between spaces; with a list of known values, the longest known sector that
 * prefixes the value wins, which also covers sub-sectors containing a slash.
 */
export function splitIndustry(value: string, known: readonly string[] = JOB_INDUSTRIES): IndustrySplit {
  let best: string | null = null
  for (const sector of knownSectors(known)) {
    if (value === sector) return { sector, subSector: null }
    if (value.startsWith(`${sector}/`) && (best === null || sector.length > best.length)) best = sector
  }
  if (best !== null) return { sector: best, subSector: value.slice(best.length + 1) }
  for (let i = 1; i < value.length - 1; i++) {
    if (value[i] === '/' && value[i - 1] !== ' ' && value[i + 1] !== ' ') {
      return { sector: value.slice(0, i), subSector: value.slice(i + 1) }
    }
  }
  return { sector: value, subSector: null }
}

/** The values of a job_industry list that are sectors: those no other value prefixes with a slash. */
function knownSectors(known: readonly string[]): string[] {
  return known.filter((value) => !known.some((other) => other !== value && value.startsWith(`${other}/`)))
}

/** splitIndustry over one list, each value split once: for callers that split many times. */
export function industrySplitter(known: readonly string[]): (value: string) => IndustrySplit {
  const splits = new Map(known.map((value) => [value, splitIndustry(value, known)]))
  return (value) => splits.get(value) ?? splitIndustry(value, known)
}

/** The sectors of a job_industry list, in list order. */
export function sectorsOf(industries: readonly string[]): string[] {
  const sectors: string[] = []
  for (const value of industries) {
    const { sector } = splitIndustry(value, industries)
    if (!sectors.includes(sector)) sectors.push(sector)
  }
  return sectors
}

/** `sector_disciplines` spelling of each industry: `<Sector>::<Discipline>`, or the sector alone. */
export function sectorDisciplinesOf(industries: readonly string[]): string[] {
  return industries.map((value) => {
    const { sector, subSector } = splitIndustry(value, industries)
    return subSector === null ? sector : `${sector}::${subSector}`
  })
}

export const SECTOR_DISCIPLINES = sectorDisciplinesOf(JOB_INDUSTRIES)

/** Resolves every constrained and derived list from a (possibly scenario-given) set of values. */
export function listsOf(values: FieldValues): Record<FieldName | DerivedName, readonly string[]> {
  return { ...values, sector_disciplines: sectorDisciplinesOf(values.job_industry) }
}

export const METRIC_LABELS = [
  'Jobs created',
  'Job searches',
  'Client enquiries',
  'Registrations',
  'Applications',
  'Timesheets',
  'Consent opt-ins',
  'Consent opt-outs',
  'Job submissions',
  'Candidate interest',
] as const

export const MONTH_NAMES = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
] as const

/** The three-letter month names a deployment may write instead (behaviour.monthNames "short"). */
export const MONTH_SHORT_NAMES = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const

/** Every month name the spec's "month name" allows: long or short ('May' is both). */
export const MONTH_NAME_VALUES = [
  ...MONTH_NAMES,
  ...(['Jan', 'Feb', 'Mar', 'Apr', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const),
] as const

export const BINARY_FLAG = [0, 1] as const

/**
 * The predefined job locations a UK veterinary board ships (job/add needs no
 * coordinates for them); a scenario may replace them (schemas/scenario.ts).
 */
export const UK_LOCATIONS: ReadonlyArray<{ readonly name: string; readonly latitude: number; readonly longitude: number }> = [
  { name: 'London', latitude: 51.5072, longitude: -0.1276 },
  { name: 'Birmingham', latitude: 52.4862, longitude: -1.8904 },
  { name: 'Manchester', latitude: 53.4808, longitude: -2.2426 },
  { name: 'Leeds', latitude: 53.8008, longitude: -1.5491 },
  { name: 'Liverpool', latitude: 53.4084, longitude: -2.9916 },
  { name: 'Bristol', latitude: 51.4545, longitude: -2.5879 },
  { name: 'Sheffield', latitude: 53.3811, longitude: -1.4701 },
  { name: 'Newcastle upon Tyne', latitude: 54.9783, longitude: -1.6178 },
  { name: 'Nottingham', latitude: 52.9548, longitude: -1.1581 },
  { name: 'Leicester', latitude: 52.6369, longitude: -1.1398 },
  { name: 'Southampton', latitude: 50.9097, longitude: -1.4044 },
  { name: 'Brighton', latitude: 50.8225, longitude: -0.1372 },
  { name: 'Oxford', latitude: 51.752, longitude: -1.2577 },
  { name: 'Cambridge', latitude: 52.2053, longitude: 0.1218 },
  { name: 'Norwich', latitude: 52.6309, longitude: 1.2974 },
  { name: 'Exeter', latitude: 50.7184, longitude: -3.5339 },
  { name: 'Plymouth', latitude: 50.3755, longitude: -4.1427 },
  { name: 'York', latitude: 53.96, longitude: -1.0873 },
  { name: 'Edinburgh', latitude: 55.9533, longitude: -3.1883 },
  { name: 'Glasgow', latitude: 55.8642, longitude: -4.2518 },
  { name: 'Aberdeen', latitude: 57.1497, longitude: -2.0943 },
  { name: 'Cardiff', latitude: 51.4816, longitude: -3.1791 },
  { name: 'Swansea', latitude: 51.6214, longitude: -3.9436 },
  { name: 'Belfast', latitude: 54.5973, longitude: -5.9301 },
  { name: 'Inverness', latitude: 57.4778, longitude: -4.2247 },
  { name: 'Carlisle', latitude: 54.8925, longitude: -2.9329 },
  { name: 'Harrogate', latitude: 53.9921, longitude: -1.5418 },
  { name: 'Cheltenham', latitude: 51.8994, longitude: -2.0783 },
  { name: 'Guildford', latitude: 51.2362, longitude: -0.5704 },
  { name: 'Newmarket', latitude: 52.2446, longitude: 0.4065 },
]

/**
 * Marketing actions and consent values. The spec shows `Revoked`; the word for an
 * approval is not shown, so the fake says `Approved` (docs/behaviour.md).
 */
export const MARKETING_ACTIONS = ['Approved', 'Revoked'] as const
/** The consent `type` of entries that mirror marketing records. */
export const MARKETING_CONSENT_TYPE = 'Marketing'

/** The forms of a saved board: every record, or only what differs from the generated board (GET /__mock/state?form=). */
export const STATE_FORMS = ['full', 'compact'] as const
