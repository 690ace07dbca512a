// The fake's options: validated against schemas/options.ts with defaults filled in,
// then frozen; and the effective scenario, where options given override the
// scenario's own settings.
import { serverOptions } from '../../schemas/options.js'
import { behaviourProperties } from '../../schemas/behaviour.js'
import { deepFreeze, type DeepReadonly } from '../core/freeze.js'
import type { LoadedScenario } from './scenario.js'
import type { Scenario, ServerOptions, ServerOptionsInput } from '../core/types.js'
import { compileSchema, explain } from '../core/validation.js'
import type { ValidateFunction } from 'ajv'

export type ResolvedOptions = DeepReadonly<ServerOptions>

import { OptionsError } from '../core/errors.js'

export { OptionsError }

let optionsValidator: ValidateFunction<ServerOptions> | undefined

export function resolveOptions(input: ServerOptionsInput = {}): ResolvedOptions {
  // compiled once per process, when first needed: a pure function of the options schema
  optionsValidator ??= compileSchema<ServerOptions>({ useDefaults: true, ownSchemas: true, fewCalls: true }, serverOptions)
  const validate = optionsValidator
  // undefined means "not given", as a caller spreading optional settings expects
  const copy = Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined))
  if (!validate(copy)) throw new OptionsError(`Invalid options: ${explain(validate.errors ?? [], 'options', copy)}`)
  // a virtual clock moves only when told: there is nothing for a speed to multiply
  if (copy.clockSpeed !== undefined && copy.clockSpeed !== 1 && copy.clock === 'virtual') {
    throw new OptionsError('Invalid options: option clockSpeed speeds up the real clock only; leave it out with clock virtual.')
  }
  return deepFreeze(copy)
}

const KNOBS = Object.keys(behaviourProperties) as Array<keyof typeof behaviourProperties>

/** The scenario as this instance runs it: the options given take the place of its settings. */
export function effectiveScenario(scenario: LoadedScenario, options: ResolvedOptions): LoadedScenario {
  const first = scenario.credentials[0] as Scenario['credentials'][number]
  const credentials =
    options.username !== undefined || options.password !== undefined
      ? [{ username: options.username ?? first.username, password: options.password ?? first.password }]
      : scenario.credentials
  const behaviour: Record<string, unknown> = { ...scenario.behaviour }
  for (const knob of KNOBS) if (options[knob] !== undefined) behaviour[knob] = options[knob]
  const publicBaseUrl = options.publicBaseUrl ?? scenario.publicBaseUrl
  return deepFreeze({
    ...structuredClone(scenario as Scenario),
    seed: options.seed ?? scenario.seed,
    now: options.now ?? scenario.now,
    pageSize: options.pageSize ?? scenario.pageSize,
    rateLimitWindow: options.rateLimitWindow ?? scenario.rateLimitWindow,
    credentials: structuredClone(credentials as Scenario['credentials']),
    behaviour: behaviour as Scenario['behaviour'],
    ...(publicBaseUrl === undefined ? {} : { publicBaseUrl: publicBaseUrl.replace(/\/+$/, '') }),
  })
}
