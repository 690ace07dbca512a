// The settings of one contract run: the `contract` command's flags and the JOBBOARD_*
// environment variables, validated once against schemas/contract.ts (defaults filled
// in) and frozen, so that the rest of the kit never sees a half-valid setting. A wrong
// setting is a UsageError (exit 2).
import { X509Certificate } from 'node:crypto'
import { readFileSync } from 'node:fs'
import type { ValidateFunction } from 'ajv'
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
    /** The proxies and extra CAs the environment names (HTTPS_PROXY, HTTP_PROXY, NO_PROXY, NODE_EXTRA_CA_CERTS). */
    network?: Network
  }
>

export interface Network {
  httpsProxy?: string
  httpProxy?: string
  noProxy?: string
  /** The file NODE_EXTRA_CA_CERTS names: Node reads it at start-up; the kit checks that it parses. */
  extraCaCerts?: string
}

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

/** A proxy variable's value: an http(s) URL. Its value is not repeated in the message: it may hold a password. */
function proxyOf(env: NodeJS.ProcessEnv, names: readonly string[]): string | undefined {
  const name = names.find((n) => given(env[n]) !== undefined)
  if (name === undefined) return undefined
  const value = env[name] as string
  let url: URL
  try {
    url = new URL(value)
  } catch {
    throw new UsageError(`${name} is not a URL: give the proxy as http://host:port.`)
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`${name} must be an http:// or https:// URL (a host:port alone is not one).`)
  return value
}

/** Checks that NODE_EXTRA_CA_CERTS names a file of PEM certificates: Node only warns when it cannot load it. */
function extraCaOf(path: string | undefined): string | undefined {
  if (path === undefined) return undefined
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch (error) {
    throw new UsageError(`NODE_EXTRA_CA_CERTS ${path} cannot be read: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`)
  }
  const blocks = text.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? []
  if (blocks.length === 0) throw new UsageError(`NODE_EXTRA_CA_CERTS ${path} holds no PEM certificate (-----BEGIN CERTIFICATE-----).`)
  for (const [i, block] of blocks.entries()) {
    try {
      new X509Certificate(block)
    } catch (error) {
      throw new UsageError(`NODE_EXTRA_CA_CERTS ${path}: certificate ${i + 1} does not parse: ${(error as Error).message}`)
    }
  }
  return path
}

function networkOf(env: NodeJS.ProcessEnv): Network {
  const network: Network = {}
  const httpsProxy = proxyOf(env, ['HTTPS_PROXY', 'https_proxy'])
  const httpProxy = proxyOf(env, ['HTTP_PROXY', 'http_proxy'])
  const noProxy = given(env.NO_PROXY) ?? given(env.no_proxy)
  const extraCaCerts = extraCaOf(given(env.NODE_EXTRA_CA_CERTS))
  if (httpsProxy !== undefined) network.httpsProxy = httpsProxy
  if (httpProxy !== undefined) network.httpProxy = httpProxy
  if (noProxy !== undefined) network.noProxy = noProxy
  if (extraCaCerts !== undefined) network.extraCaCerts = extraCaCerts
  return network
}

/** The options' validator, compiled once a process (a suite starts many runs). */
let optionsValidator: ValidateFunction<ContractOptions> | undefined

/** Flags first, then the environment; checks every value. */
export function resolveSettings(flags: ContractFlags, env: NodeJS.ProcessEnv = {}): ContractSettings {
  const merged: Record<string, unknown> = Object.fromEntries(Object.entries(flags).filter(([, v]) => v !== undefined && v !== ''))
  for (const [key, variable] of Object.entries(ENVIRONMENT)) if (merged[key] === undefined && given(env[variable]) !== undefined) merged[key] = env[variable]
  optionsValidator ??= createAjv({ useDefaults: true }).compile<ContractOptions>(contractOptions)
  const validate = optionsValidator
  if (!validate(merged)) throw new UsageError(asFlags(explain(validate.errors ?? [], 'options', merged)))
  const { baseUrl, only, ...rest } = merged
  if ((rest.username === undefined) !== (rest.password === undefined)) {
    throw new UsageError(`${rest.username === undefined ? 'a password' : 'a user name'} without ${rest.username === undefined ? 'a user name' : 'a password'}: give both or neither.`)
  }
  return deepFreeze({ ...rest, baseUrl: baseUrlOf(baseUrl), groups: groupsOf(only, rest.writes), network: networkOf(env) })
}
