// The settings of one contract run: what the `contract` command's flags and the
// JOBBOARD_* environment variables give, checked once, so that the rest of the kit
// never sees a half-valid setting. A wrong setting is a UsageError (exit 2).
import { scenario } from '../../schemas/scenario.js'

/** The groups `--only` names. Each is a family of endpoints (see docs/contract.md). */
export const GROUPS = [
  'fields',
  'candidates',
  'applications',
  'timesheets',
  'marketing',
  'metrics',
  'auth',
  'jobs',
  'rate-limit',
] as const
export type Group = (typeof GROUPS)[number]

/** Groups a run makes unless `--only` says otherwise: jobs need --writes, the 429 check is asked for by name. */
const BY_DEFAULT: readonly Group[] = GROUPS.filter((g) => g !== 'jobs' && g !== 'rate-limit')

/** The spec's window: each full request once per 15 minutes, as the fake's default says. */
export const RATE_LIMIT_WINDOW_SECONDS = scenario.properties.rateLimitWindow.default

export interface ContractSettings {
  /** The spec's {base_url}, without /api/v1 and without a trailing slash. */
  baseUrl: string
  username: string | undefined
  password: string | undefined
  writes: boolean
  /** Seconds the kit may wait for a rate-limit window to open. */
  maxWait: number
  junit: string | undefined
  report: string | undefined
  ledger: string | undefined
  groups: readonly Group[]
  /** Seconds before one request is given up. */
  requestTimeout: number
}

/** What the command line gives: commander's parsed flags, all optional. */
export interface ContractFlags {
  baseUrl?: string
  username?: string
  password?: string
  writes?: boolean
  maxWait?: string
  junit?: string
  report?: string
  only?: string
  ledger?: string
}

export class UsageError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'UsageError'
  }
}

const given = (value: string | undefined) => (value === undefined || value === '' ? undefined : value)

function baseUrlOf(raw: string | undefined): string {
  if (raw === undefined) throw new UsageError('no base URL: give --base-url URL or set JOBBOARD_BASE_URL.')
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    throw new UsageError(`--base-url ${JSON.stringify(raw)} is not a URL.`)
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`--base-url must be http or https, not ${url.protocol}`)
  if (url.username !== '' || url.password !== '') {
    throw new UsageError('--base-url must not hold credentials: give --username and --password (or JOBBOARD_USERNAME and JOBBOARD_PASSWORD).')
  }
  if (url.search !== '' || url.hash !== '') throw new UsageError('--base-url must not hold a query string or fragment.')
  const path = url.pathname.replace(/\/+$/, '')
  if (/\/api\/v1$/.test(path)) throw new UsageError('--base-url is the base URL without /api/v1: leave /api/v1 out.')
  return `${url.origin}${path}`
}

function groupsOf(only: string | undefined, writes: boolean): readonly Group[] {
  if (only === undefined) return writes ? [...BY_DEFAULT, 'jobs'] : BY_DEFAULT
  const names = only.split(',').map((name) => name.trim()).filter((name) => name !== '')
  if (names.length === 0) throw new UsageError('--only needs at least one group.')
  const unknown = names.filter((name) => !(GROUPS as readonly string[]).includes(name))
  if (unknown.length > 0) throw new UsageError(`--only: unknown group ${unknown.join(', ')}; the groups are ${GROUPS.join(', ')}.`)
  if (names.includes('jobs') && !writes) throw new UsageError('--only jobs makes writes: add --writes.')
  return GROUPS.filter((group) => names.includes(group))
}

/** Flags first, then the environment; checks every value. */
export function resolveSettings(flags: ContractFlags, env: NodeJS.ProcessEnv = {}): ContractSettings {
  const username = given(flags.username) ?? given(env.JOBBOARD_USERNAME)
  const password = given(flags.password) ?? given(env.JOBBOARD_PASSWORD)
  if ((username === undefined) !== (password === undefined)) {
    throw new UsageError(`${username === undefined ? 'a password' : 'a user name'} without ${username === undefined ? 'a user name' : 'a password'}: give both or neither.`)
  }
  const maxWaitText = flags.maxWait ?? '0'
  if (!/^[0-9]+$/.test(maxWaitText)) throw new UsageError(`--max-wait ${JSON.stringify(maxWaitText)} is not a whole number of seconds.`)
  const writes = flags.writes === true
  return {
    baseUrl: baseUrlOf(given(flags.baseUrl) ?? given(env.JOBBOARD_BASE_URL)),
    username,
    password,
    writes,
    maxWait: Number(maxWaitText),
    junit: given(flags.junit),
    report: given(flags.report),
    ledger: given(flags.ledger),
    groups: groupsOf(given(flags.only), writes),
    requestTimeout: 30,
  }
}
