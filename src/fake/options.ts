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

/**
 * The effective scenarios made from one loaded scenario, by the options that shape them
 * other than the credentials: every account of a fake on one scenario and seed differs
 * only by its user, so its effective scenario is the first one's with its own credentials
 * (no clone of the whole scenario per account). Why module-level: keyed weakly by a
 * frozen loaded scenario, whose effective scenarios are a pure function of it and the
 * options' text; no caller can see another's use of it but by being faster.
 */
const MADE = new WeakMap<LoadedScenario, Map<string, LoadedScenario>>()
/** Each effective scenario made over another of the same scenario and options: the one it differs from only by credentials. */
const SAME_BOARD = new WeakMap<LoadedScenario, LoadedScenario>()

/** The effective scenario this one differs from only by its credentials (itself when none): what a shared board is keyed by. */
export function sameBoardAs(scenario: LoadedScenario): LoadedScenario {
  return SAME_BOARD.get(scenario) ?? scenario
}

/** The scenario as this instance runs it: the options given take the place of its settings. */
export function effectiveScenario(scenario: LoadedScenario, options: ResolvedOptions): LoadedScenario {
  const first = scenario.credentials[0] as Scenario['credentials'][number]
  const credentials =
    options.username !== undefined || options.password !== undefined
      ? [{ username: options.username ?? first.username, password: options.password ?? first.password }]
      : scenario.credentials
  // only a frozen scenario is known not to change under its key
  if (!Object.isFrozen(scenario)) return made(scenario, options, credentials)
  const key = optionsKey(options)
  let byOptions = MADE.get(scenario)
  if (byOptions === undefined) {
    byOptions = new Map()
    MADE.set(scenario, byOptions)
  }
  const before = byOptions.get(key)
  if (before === undefined) {
    const effective = made(scenario, options, credentials)
    byOptions.set(key, effective)
    return effective
  }
  // the key order of the scenario kept (a saved state's text): credentials replaced where they are
  const effective = deepFreeze({ ...before, credentials: copyCredentials(credentials) }) as LoadedScenario
  SAME_BOARD.set(effective, before)
  return effective
}

/**
 * Each frozen options object's key among the effective scenarios (what shapes one besides
 * the credentials), made once: every account's board, and each reset, asks again with the
 * same options. Weak, and a pure function of a frozen object, as MADE above.
 */
const KEYS = new WeakMap<ResolvedOptions, string>()

function optionsKey(options: ResolvedOptions): string {
  let key = KEYS.get(options)
  if (key === undefined) {
    key = JSON.stringify([options.seed, options.now, options.pageSize, options.rateLimitWindow, options.publicBaseUrl, KNOBS.map((knob) => (options[knob] === undefined ? [] : [options[knob]]))])
    if (Object.isFrozen(options)) KEYS.set(options, key)
  }
  return key
}

/** A copy of credentials ({username, password}: strings alone, so a copy of each object is a deep one, in its key order; structuredClone cost each account's board more). */
const copyCredentials = (credentials: LoadedScenario['credentials']): Scenario['credentials'] => credentials.map((credential) => ({ ...credential })) as Scenario['credentials']

function made(scenario: LoadedScenario, options: ResolvedOptions, credentials: LoadedScenario['credentials']): LoadedScenario {
  const behaviour: Record<string, unknown> = { ...scenario.behaviour }
  for (const knob of KNOBS) if (options[knob] !== undefined) behaviour[knob] = options[knob]
  const publicBaseUrl = options.publicBaseUrl ?? scenario.publicBaseUrl
  return deepFreeze({
    ...structuredClone(scenario as Scenario),
    seed: options.seed ?? scenario.seed,
    now: options.now ?? scenario.now,
    pageSize: options.pageSize ?? scenario.pageSize,
    rateLimitWindow: options.rateLimitWindow ?? scenario.rateLimitWindow,
    credentials: copyCredentials(credentials),
    behaviour: behaviour as Scenario['behaviour'],
    ...(publicBaseUrl === undefined ? {} : { publicBaseUrl: publicBaseUrl.replace(/\/+$/, '') }),
  })
}
