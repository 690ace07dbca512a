// Loads a scenario, by name from scenarios/ or from a path, validates it against the
// scenario schema with its defaults filled in, and freezes it. Pinned records are
// checked against the scenario's own constrained lists (`fieldValues`), not the spec's.
// A bad file fails with an error naming the file and the field. A file whose bytes the
// build checked already (the shipped scenarios, scripts/precompile.mjs) is taken in its
// checked form instead: validating the scenario schema is a good part of a fake's start.
// The accounts a scenario declares are checked here by the one set of account rules
// (`accountsProblem`, which in-process and command-line accounts go through too), read
// by src/fake/accounts.ts when a fake starts (`loadDeclaring`), and left out of the
// scenario a board holds: a board's scenario is exported, and accounts carry passwords.
import type { ErrorObject, ValidateFunction } from 'ajv'
import { createHash } from 'node:crypto'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { basename, dirname, join, resolve } from 'node:path'
import { account as accountSchema, ACCOUNT_NAME_PATTERN, scenario as scenarioSchema } from '../../schemas/scenario.js'
import { FIELD_NAMES, FIELD_VALUES, sectorDisciplinesOf, UK_LOCATIONS, type FieldValues } from '../../schemas/values.js'
import { deepFreeze, type DeepReadonly } from '../core/freeze.js'
import { SCENARIOS_DIR } from '../core/paths.js'
import { PROTOTYPE_KEYS, prototypeKeyPath, prototypeKeyRefusal } from '../core/prototype-keys.js'
import { ASSETS, executableAsset, executableScenarios, inExecutable } from '../core/shipped.js'
import type { Scenario, ScenarioFile } from '../core/types.js'
import { bindFieldValues, compileSchema, explain, fieldOf, firstField, PRECOMPILED_DIR, precompiledName, valueNestsDeeper } from '../core/validation.js'

export type LoadedScenario = DeepReadonly<Scenario>

export class ScenarioError extends Error {
  /** The scenario field at fault (`records.applications[0].candidate_id`), '' when the whole file is. */
  readonly field: string

  constructor(message: string, field = '') {
    super(message)
    this.name = 'ScenarioError'
    this.field = field
  }
}

/**
 * How much a refusal may say. A scenario named by path through the control API may be
 * any .json file on the machine: its refusal names the field at fault but never the
 * file's values or unknown keys, so a reset cannot be used to read files.
 */
export interface LoadPolicy {
  redact?: boolean
  /** Compiled scenario schemas by the lists bound in, kept by the caller (an app instance) across loads. */
  compiled?: CompiledSchemas
  /** Scenarios checked already, by scenarioDigest() of their file's text; the build's (CHECKED_SCENARIOS) when not given. */
  checked?: ReadonlyMap<string, LoadedScenario>
}

/**
 * A few compiled validators (or sets of them) by key, oldest dropped first: compiling a
 * schema costs far more than running it, and resets and restores mostly reuse the lists.
 */
export class CompiledSchemas {
  readonly #cache = new Map<string, unknown>()
  readonly #limit: number

  constructor(limit = 8) {
    this.#limit = limit
  }

  get<T = ValidateFunction>(key: string, compile: () => T): T {
    let found = this.#cache.get(key) as T | undefined
    if (found === undefined) {
      found = compile()
      if (this.#cache.size >= this.#limit) this.#cache.delete(this.#cache.keys().next().value as string)
    } else {
      // the most recently used stays longest
      this.#cache.delete(key)
    }
    this.#cache.set(key, found)
    return found
  }
}

let processSchemas: CompiledSchemas | undefined
/**
 * The compiled validators every board of this process shares. Compiling is the costliest
 * part of starting a fake; a validator is a pure function of its schema and lists, so a
 * second fake (a test file starts many) reuses them. Bounded, the least recently used go.
 */
export function sharedSchemas(): CompiledSchemas {
  processSchemas ??= new CompiledSchemas(16)
  return processSchemas
}

/** The lists a board validates against and draws from: constrained, derived, and predefined locations. */
export type BoardLists = FieldValues & {
  readonly sector_disciplines: readonly string[]
  readonly job_locations: readonly string[]
}

/** The constrained lists of a board made from this scenario: its fieldValues, else the spec's. */
export function boardLists(scenario: Pick<Scenario, 'fieldValues' | 'predefinedLocations'> | DeepReadonly<Pick<Scenario, 'fieldValues' | 'predefinedLocations'>>): BoardLists {
  const given = scenario.fieldValues as Partial<Record<string, readonly string[]>>
  const values = Object.fromEntries(FIELD_NAMES.map((name) => [name, given[name] ?? FIELD_VALUES[name]])) as FieldValues
  const locations = scenario.predefinedLocations ?? UK_LOCATIONS
  return {
    ...values,
    sector_disciplines: sectorDisciplinesOf(values.job_industry),
    job_locations: locations.map((l) => l.name),
  }
}

/** The names of the scenarios shipped in scenarios/. */
export function scenarioNames(): string[] {
  const carried = executableScenarios()
  if (carried) return [...carried.keys()].sort()
  return readdirSync(SCENARIOS_DIR)
    .filter((f) => f.endsWith('.json'))
    .map((f) => basename(f, '.json'))
    .sort()
}

/** A scenario's name (scenarios/NAME.json), as against a path. */
const SCENARIO_NAME = /^[a-z0-9][a-z0-9-]*$/

function readScenarioFile(ref: string, redact: boolean): { source: string; text: string; folder: string } {
  // the single executable carries the shipped scenarios inside it
  const carried = SCENARIO_NAME.test(ref) ? executableScenarios()?.get(ref) : undefined
  if (carried !== undefined) return { source: `scenarios/${ref}.json`, text: carried, folder: process.cwd() }
  const named = join(SCENARIOS_DIR, `${ref}.json`)
  const path = SCENARIO_NAME.test(ref) && existsSync(named) ? named : resolve(ref)
  // a file is read only if it says it is a scenario: a reset through the control API cannot read /etc/passwd
  if (path !== named && !path.endsWith('.json')) {
    throw new ScenarioError(`Scenario "${ref}" is neither one of ${scenarioNames().join(', ')} nor a .json file.`)
  }
  if (!existsSync(path)) {
    throw new ScenarioError(`Scenario "${ref}" not found: not one of ${scenarioNames().join(', ')} and no such file.`)
  }
  try {
    return { source: path, text: readFileSync(path, 'utf8'), folder: dirname(path) }
  } catch (error) {
    // a folder named x.json, a file it may not read: said as a bad file, as the rest
    throw new ScenarioError(`Scenario file ${path} is not valid JSON${redact ? '.' : `: ${(error as Error).message}`}`)
  }
}

function parseJson(text: string, source: string, redact: boolean): unknown {
  try {
    return JSON.parse(text) as unknown
  } catch (error) {
    // JSON.parse quotes the text it stopped at: not to be passed on for a file anyone may name
    throw new ScenarioError(`Scenario file ${source} is not valid JSON${redact ? '.' : `: ${(error as Error).message}`}`)
  }
}

/** The scenarios the build checked: written by scripts/precompile.mjs, by scenarioDigest(). */
export const CHECKED_SCENARIOS = `${PRECOMPILED_DIR}scenarios.json`

let schemaKey: string | undefined
/**
 * What a checked scenario is known by: its file's text, and the schema and policy it was
 * checked under (so a build made before the schema changed is never taken at its word).
 */
export function scenarioDigest(text: string): string {
  schemaKey ??= precompiledName(SCENARIO_POLICY, scenarioSchema)
  return createHash('sha256').update(schemaKey).update('\n').update(text).digest('hex')
}

/** The shipped scenarios, parsed and checked, by digest: what the build writes to CHECKED_SCENARIOS. */
export function checkScenarios(names: readonly string[] = scenarioNames()): Record<string, LoadedScenario> {
  // kept whole, accounts and all: loadDeclaring reads them from this form
  return Object.fromEntries(names.map((name) => [scenarioDigest(readFileSync(join(SCENARIOS_DIR, `${name}.json`), 'utf8')), loadDeclaring(name, { checked: new Map() }).whole]))
}

let buildChecked: ReadonlyMap<string, LoadedScenario> | undefined
/** The build's checked scenarios; none when there is no build, or its file cannot be read. */
function builtChecks(): ReadonlyMap<string, LoadedScenario> {
  if (buildChecked === undefined) {
    let entries: Record<string, Scenario> = {}
    try {
      // the single executable carries the build's file inside it, and reads none beside it
      const text = inExecutable() ? executableAsset(ASSETS.checkedScenarios)?.toString('utf8') : existsSync(CHECKED_SCENARIOS) ? readFileSync(CHECKED_SCENARIOS, 'utf8') : undefined
      if (text !== undefined) entries = JSON.parse(text) as Record<string, Scenario>
    } catch {
      // a damaged build file only costs time: every scenario is then checked as it loads
    }
    buildChecked = new Map(Object.entries(entries) as Array<[string, LoadedScenario]>)
  }
  return buildChecked
}



/** The refusal of a scenario that breaks its schema. */
function refusal(errors: readonly ErrorObject[], source: string, data: unknown, redact: boolean): ScenarioError {
  const first = errors.find((e) => e.keyword !== 'if')
  const unknownKey = first?.keyword === 'additionalProperties'
  // an unknown key is named by its parent when redacted: the key itself may be what a file holds
  const field = unknownKey && redact && first ? fieldOf({ ...first, keyword: 'type' }) : firstField(errors)
  if (!redact) return new ScenarioError(`${source} is invalid: ${explain(errors, 'scenario', data)}`, field)
  const where = field === '' ? 'at its top level' : `at ${field}`
  return new ScenarioError(
    `${source} is not a valid scenario: ${unknownKey ? 'it has a field no scenario has' : 'a field does not fit the scenario format'} ${where} (load it with jobboard-kit serve --scenario to see more).`,
    field,
  )
}

/** The parts of a scenario that decide the lists its pinned records are checked against. */
export const scenarioListsSchema = {
  type: 'object',
  properties: { fieldValues: scenarioSchema.properties.fieldValues, predefinedLocations: scenarioSchema.properties.predefinedLocations },
} as const

/** How scenarios are validated: defaults filled in. */
export const SCENARIO_POLICY = { useDefaults: true, ownSchemas: true, fewCalls: true } as const

/** The scenario schema with a board's lists bound in: what a scenario with those lists is held to. */
export const boundScenarioSchema = (lists: BoardLists) => bindFieldValues(scenarioSchema, lists)

/**
 * Validates scenario data, fills in defaults and freezes it. Its own lists (fieldValues,
 * predefinedLocations) are checked first, then the whole scenario with them bound in, so
 * a pinned record may hold a value only this scenario lists. The accounts it declares
 * are checked, then left out of what it gives (`loadDeclaring` reads them).
 */
export function parseScenario(data: unknown, source = 'scenario', policy: LoadPolicy = {}): LoadedScenario {
  return withoutAccounts(parseWhole(data, source, policy))
}

/** A scenario as a board holds it: the accounts it declares are the fake's, read once at start. */
function withoutAccounts(scenario: LoadedScenario): LoadedScenario {
  if (scenario.accounts === undefined) return scenario
  const { accounts: _accounts, ...rest } = scenario
  return deepFreeze(rest as Scenario)
}

function parseWhole(data: unknown, source: string, { redact = false, compiled = new CompiledSchemas() }: LoadPolicy): LoadedScenario {
  let copy: unknown
  try {
    copy = valueNestsDeeper(data) ? undefined : structuredClone(data)
  } catch {
    copy = undefined
  }
  if (copy === undefined) throw new ScenarioError(`${source} is invalid: it must be JSON data, nested at most 64 levels deep.`)
  // the accounts first, by the rules every declaration goes through: each refusal names the account
  const declared = (copy as { accounts?: unknown }).accounts
  if (Array.isArray(declared)) {
    const problem = accountsProblem(declared, { redact })
    if (problem !== undefined) throw new ScenarioError(`${source} is invalid at ${problem.field}: ${problem.message}`, problem.field)
  }
  // a prototype key anywhere, named where it is; a file named through the control API
  // (redact) is held to the schema first, so the path names only keys a scenario has
  const keyPath = prototypeKeyPath(copy)
  const refuseKey = (path: string) => new ScenarioError(prototypeKeyRefusal(source, path, 'no field of a scenario has that name'), path)
  if (keyPath !== undefined && !redact) throw refuseKey(keyPath)
  const lists = compiled.get('lists', () => compileSchema(SCENARIO_POLICY, scenarioListsSchema))
  if (!lists(copy)) throw refusal(lists.errors ?? [], source, copy, redact)
  const bound = boardLists(copy as Scenario)
  const validate = compiled.get(JSON.stringify(bound), () => compileSchema(SCENARIO_POLICY, boundScenarioSchema(bound)))
  if (!validate(copy)) throw refusal(validate.errors ?? [], source, copy, redact)
  if (keyPath !== undefined) throw refuseKey(keyPath)
  return deepFreeze(copy as Scenario)
}

/** A scenario by name (scenarios/NAME.json), by path, or given as an object; the accounts it declares left out. */
export function loadScenario(ref: string | ScenarioFile, policy: LoadPolicy = {}): LoadedScenario {
  return withoutAccounts(loadDeclaring(ref, policy).whole)
}

/** A scenario loaded with the accounts it declares. */
export interface DeclaringScenario {
  /** The scenario with its accounts (never a board's: see loadScenario). */
  readonly whole: LoadedScenario
  /** The folder a path an account names is taken from: the file's, or the working folder for a scenario given as an object. */
  readonly folder: string
  /** What a refusal calls it: `Scenario file PATH`, or `Scenario "NAME"` when given as an object. */
  readonly label: string
}

/** A scenario by name, path or as an object, the accounts it declares kept (src/fake/accounts.ts reads them). */
export function loadDeclaring(ref: string | ScenarioFile, policy: LoadPolicy = {}): DeclaringScenario {
  if (typeof ref !== 'string') {
    const label = `Scenario "${typeof ref?.name === 'string' ? ref.name : '(inline)'}"`
    return { whole: parseWhole(ref, label, { compiled: policy.compiled }), folder: process.cwd(), label }
  }
  const { source, text, folder } = readScenarioFile(ref, policy.redact ?? false)
  const label = `Scenario file ${source}`
  const known = policy.checked === undefined ? LOADED.get(text) : undefined
  if (known !== undefined) return { whole: known, folder, label }
  const checked = (policy.checked ?? builtChecks()).get(scenarioDigest(text))
  // frozen as a validated one is, whoever gave the checked form
  const whole = checked !== undefined ? deepFreeze(checked) : parseWhole(parseJson(text, source, policy.redact ?? false), label, policy)
  if (policy.checked === undefined) {
    if (LOADED.size >= MAX_LOADED) LOADED.delete(LOADED.keys().next().value as string)
    LOADED.set(text, whole)
  }
  return { whole, folder, label }
}

/**
 * Scenario files loaded in this process, by their text: a later fake of the same file (and
 * each account and board of a fake, which load it again) reads the frozen scenario made
 * before instead of parsing and checking it again (about a millisecond each time). Why at
 * module level: what it holds is deep-frozen and a pure function of the text it is keyed
 * by (the file is still read each time, so a changed file is loaded anew); bounded.
 */
const LOADED = new Map<string, LoadedScenario>()
const MAX_LOADED = 16

/**
 * The scenario an account declared in a scenario file names, as its command line would
 * name it: a shipped scenario's name as it is, a path from the declaring file's folder.
 */
export function accountScenarioRef(ref: string, folder: string): string {
  return SCENARIO_NAME.test(ref) ? ref : resolve(folder, ref)
}

/** What an account name may be: it is a user name and a path segment. */
export const ACCOUNT_NAME = new RegExp(ACCOUNT_NAME_PATTERN)
/** The largest seed an account may be given. */
export const MAX_ACCOUNT_SEED = accountSchema.properties.seed.maximum
const ACCOUNT_FIELDS: readonly string[] = Object.keys(accountSchema.properties)

/** What is wrong with a list of accounts: the first fault, and the field it is at (`accounts[1].name`). */
export interface AccountsProblem {
  readonly field: string
  readonly message: string
}

/**
 * The first fault of a list of accounts, said naming the account: the one check of an
 * account declaration, whether a scenario file, `serve --account` or `createMockServer({
 * accounts })` made it (the bounds are schemas/scenario.ts's `account`). `redact` names an
 * account by its place instead of its name (a file named through the control API: its
 * values are not repeated); `objects` lets an account's scenario be an object (in process).
 */
export function accountsProblem(list: readonly unknown[], { redact = false, objects = false }: { redact?: boolean; objects?: boolean } = {}): AccountsProblem | undefined {
  const names = new Set<string>()
  for (let index = 0; index < list.length; index++) {
    const input = list[index]
    const place = `accounts[${index}]`
    const at = (field: string, message: string): AccountsProblem => ({ field: field === '' ? place : `${place}.${field}`, message })
    if (input === null || typeof input !== 'object' || Array.isArray(input)) {
      return at('', `Account ${place} is not an object: give { name, password, scenario, seed } (all but the name optional).`)
    }
    const given = input as Record<string, unknown>
    const { name } = given
    const who = redact ? `Account ${place}` : `Account ${JSON.stringify(name ?? null)}`
    if (typeof name !== 'string' || !ACCOUNT_NAME.test(name)) {
      return at('name', `${who} is not a plain token: give a name of letters, digits, '.', '_' or '-' (at most 64, first a letter or digit).`)
    }
    if (names.has(name)) {
      return at('name', redact ? `${who} has the name of an account before it: give each account its own name.` : `${who} is declared twice: give each account its own name.`)
    }
    names.add(name)
    for (const key of Object.keys(given)) {
      if (PROTOTYPE_KEYS.has(key)) return at(key, `${who} holds the key ${key}, which is refused: no field of an account has that name.`)
      if (!ACCOUNT_FIELDS.includes(key)) {
        // an unknown key is named unless redacted: it may be what a file holds
        return at(redact ? '' : key, `${who} has a field no account has${redact ? '' : ` (${JSON.stringify(key)})`}: an account has ${ACCOUNT_FIELDS.join(', ')}.`)
      }
    }
    const { password, scenario, seed } = given
    if (password !== undefined && (typeof password !== 'string' || password === '')) return at('password', `${who}: its password must be a non-empty string.`)
    const isObject = objects && scenario !== null && typeof scenario === 'object' && !Array.isArray(scenario)
    if (scenario !== undefined && !isObject && (typeof scenario !== 'string' || scenario === '')) {
      return at('scenario', `${who}: its scenario must be a shipped scenario's name or a path to a .json file${objects ? ', or a scenario object' : ''}.`)
    }
    if (seed !== undefined && !(typeof seed === 'number' && Number.isSafeInteger(seed) && seed >= 0 && seed <= MAX_ACCOUNT_SEED)) {
      return at('seed', `${who}: its seed must be an integer from 0 to ${MAX_ACCOUNT_SEED}.`)
    }
  }
  return undefined
}
