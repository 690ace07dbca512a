// The settings of one `record` run: its flags and the JOBBOARD_* variables (a flag wins
// over its variable), validated against schemas/record.ts with defaults filled in and
// frozen. A bad value is a UsageError naming the flag, or the variable it came from.
import { existsSync, statSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { recordOptions } from '../../schemas/record.js'
import { asFlags } from '../core/cli-options.js'
import { deepFreeze } from '../core/freeze.js'
import type { RecordFlags, RecordOptions } from '../core/types.js'
import { createAjv, explain, firstField } from '../core/validation.js'
import { baseUrlOf, ENVIRONMENT, UsageError, type ContractSettings } from '../contract/settings.js'

export type { RecordFlags }

export type RecordSettings = Readonly<Omit<RecordOptions, 'baseUrl'> & { baseUrl: string }>

export function resolveRecordSettings(flags: RecordFlags, env: NodeJS.ProcessEnv = {}): RecordSettings {
  const merged: Record<string, unknown> = Object.fromEntries(Object.entries(flags).filter(([, v]) => v !== undefined && v !== ''))
  const fromEnv = new Map<string, string>()
  for (const [key, variable] of Object.entries(ENVIRONMENT)) {
    const value = env[variable]
    if (merged[key] === undefined && value !== undefined && value !== '') {
      merged[key] = value
      fromEnv.set(key, variable)
    }
  }
  const validate = createAjv({ useDefaults: true }).compile<RecordOptions>(recordOptions)
  if (!validate(merged)) {
    const errors = validate.errors ?? []
    const variable = fromEnv.get(firstField(errors).split(/[.[]/)[0] ?? '')
    const message = asFlags(explain(errors, 'options', merged))
    throw new UsageError(variable ? message.replace(/^The --[a-z-]+/, variable) : message)
  }
  const { baseUrl, ...rest } = merged
  if ((rest.username === undefined) !== (rest.password === undefined)) {
    throw new UsageError(`${rest.username === undefined ? 'a password' : 'a user name'} without ${rest.username === undefined ? 'a user name' : 'a password'}: give both.`)
  }
  const folder = dirname(resolve(rest.out as string))
  if (!existsSync(folder) || !statSync(folder).isDirectory()) throw new UsageError(`--out ${rest.out as string}: there is no folder ${folder} to write it in.`)
  let plain: string
  try {
    plain = baseUrlOf(baseUrl)
  } catch (error) {
    const variable = fromEnv.get('baseUrl')
    if (variable && error instanceof UsageError) throw new UsageError(`${variable}: ${error.message.replace(/^--base-url /, '')}`)
    throw error
  }
  return deepFreeze({ ...rest, baseUrl: plain })
}

/** The lists a recording reads, as the contract kit's groups: what its profile reader looks at. */
const GROUPS = ['fields', 'candidates', 'applications', 'timesheets', 'marketing', 'metrics'] as const

/** The contract kit's settings for its HTTP client and profile reader: reads only, nothing written. */
export function clientSettings(settings: RecordSettings): ContractSettings {
  return deepFreeze({
    baseUrl: settings.baseUrl,
    username: settings.username,
    password: settings.password,
    writes: false,
    maxWait: settings.maxWait,
    rateLimitWindow: settings.rateLimitWindow,
    minCoverage: 100,
    requireComplete: false,
    insecure: false,
    requestTimeout: settings.requestTimeout,
    groups: GROUPS,
  } as ContractSettings)
}
