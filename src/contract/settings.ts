// The settings of one contract run: the `contract` command's flags and the JOBBOARD_*
// environment variables, validated once against schemas/contract.ts (defaults filled
// in) and frozen, so that the rest of the kit never sees a half-valid setting. A wrong
// setting is a UsageError (exit 2).
import { CONTRACT_GROUPS, contractOptions } from '../../schemas/contract.js'
import { asFlags } from '../core/cli-options.js'
import { deepFreeze } from '../core/freeze.js'
import type { ContractFlags, ContractOptions } from '../core/types.js'
import { createAjv, explain } from '../core/validation.js'

/** The groups `--only` names. Each is a family of endpoints (see docs/contract.md). */
export const GROUPS = CONTRACT_GROUPS
export type Group = (typeof GROUPS)[number]

/** Groups a run makes unless `--only` says otherwise: jobs need --writes, the 429 check is asked for by name. */
const BY_DEFAULT: readonly Group[] = GROUPS.filter((g) => g !== 'jobs' && g !== 'rate-limit')

/** A run's settings: the options, the base URL made plain and `--only` read as groups. */
export type ContractSettings = Readonly<
  Omit<ContractOptions, 'baseUrl' | 'only'> & {
    /** The spec's {base_url}, without /api/v1 and without a trailing slash. */
    baseUrl: string
    groups: readonly Group[]
  }
>

export type { ContractFlags }

export class UsageError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'UsageError'
  }
}

const given = (value: string | undefined) => (value === undefined || value === '' ? undefined : value)

/** The spec's {base_url} made plain (no /api/v1, no trailing slash); a UsageError naming the flag when it is not one. */
export function baseUrlOf(raw: string | undefined): string {
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

/** The variables that may give a setting instead of its flag. */
export const ENVIRONMENT = { baseUrl: 'JOBBOARD_BASE_URL', username: 'JOBBOARD_USERNAME', password: 'JOBBOARD_PASSWORD' } as const

/** Flags first, then the environment; checks every value. */
export function resolveSettings(flags: ContractFlags, env: NodeJS.ProcessEnv = {}): ContractSettings {
  const merged: Record<string, unknown> = Object.fromEntries(Object.entries(flags).filter(([, v]) => v !== undefined && v !== ''))
  for (const [key, variable] of Object.entries(ENVIRONMENT)) if (merged[key] === undefined && given(env[variable]) !== undefined) merged[key] = env[variable]
  const validate = createAjv({ useDefaults: true }).compile<ContractOptions>(contractOptions)
  if (!validate(merged)) throw new UsageError(asFlags(explain(validate.errors ?? [], 'options', merged)))
  const { baseUrl, only, ...rest } = merged
  if ((rest.username === undefined) !== (rest.password === undefined)) {
    throw new UsageError(`${rest.username === undefined ? 'a password' : 'a user name'} without ${rest.username === undefined ? 'a user name' : 'a password'}: give both or neither.`)
  }
  return deepFreeze({ ...rest, baseUrl: baseUrlOf(baseUrl), groups: groupsOf(only, rest.writes) })
}
