// Loads a scenario, by name from scenarios/ or from a path, validates it against the
// scenario schema with its defaults filled in, and freezes it. Pinned records are
// checked against the scenario's own constrained lists (`fieldValues`), not the spec's.
// A bad file fails with an error naming the file and the field. A file whose bytes the
// build checked already (the shipped scenarios, scripts/precompile.mjs) is taken in its
// checked form instead: validating the scenario schema is a good part of a fake's start.
import type { ErrorObject, ValidateFunction } from 'ajv'
import { createHash } from 'node:crypto'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { basename, join, resolve } from 'node:path'
import { scenario as scenarioSchema } from '../../schemas/scenario.js'
import { FIELD_NAMES, FIELD_VALUES, sectorDisciplinesOf, UK_LOCATIONS, type FieldValues } from '../../schemas/values.js'
import { deepFreeze, type DeepReadonly } from '../core/freeze.js'
import { SCENARIOS_DIR } from '../core/paths.js'
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

function readScenarioFile(ref: string, redact: boolean): { source: string; text: string } {
  // the single executable carries the shipped scenarios inside it
  const carried = /^[a-z0-9][a-z0-9-]*$/.test(ref) ? executableScenarios()?.get(ref) : undefined
  if (carried !== undefined) return { source: `scenarios/${ref}.json`, text: carried }
  const named = join(SCENARIOS_DIR, `${ref}.json`)
  const path = /^[a-z0-9][a-z0-9-]*$/.test(ref) && existsSync(named) ? named : resolve(ref)
  // a file is read only if it says it is a scenario: a reset through the control API cannot read /etc/passwd
  if (path !== named && !path.endsWith('.json')) {
    throw new ScenarioError(`Scenario "${ref}" is neither one of ${scenarioNames().join(', ')} nor a .json file.`)
  }
  if (!existsSync(path)) {
    throw new ScenarioError(`Scenario "${ref}" not found: not one of ${scenarioNames().join(', ')} and no such file.`)
  }
  try {
    return { source: path, text: readFileSync(path, 'utf8') }
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
  return Object.fromEntries(names.map((name) => [scenarioDigest(readFileSync(join(SCENARIOS_DIR, `${name}.json`), 'utf8')), loadScenario(name, { checked: new Map() })]))
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
 * a pinned record may hold a value only this scenario lists.
 */
export function parseScenario(data: unknown, source = 'scenario', { redact = false, compiled = new CompiledSchemas() }: LoadPolicy = {}): LoadedScenario {
  let copy: unknown
  try {
    copy = valueNestsDeeper(data) ? undefined : structuredClone(data)
  } catch {
    copy = undefined
  }
  if (copy === undefined) throw new ScenarioError(`${source} is invalid: it must be JSON data, nested at most 64 levels deep.`)
  const lists = compiled.get('lists', () => compileSchema(SCENARIO_POLICY, scenarioListsSchema))
  if (!lists(copy)) throw refusal(lists.errors ?? [], source, copy, redact)
  const bound = boardLists(copy as Scenario)
  const validate = compiled.get(JSON.stringify(bound), () => compileSchema(SCENARIO_POLICY, boundScenarioSchema(bound)))
  if (!validate(copy)) throw refusal(validate.errors ?? [], source, copy, redact)
  return deepFreeze(copy as Scenario)
}

/** A scenario by name (scenarios/NAME.json), by path, or given as an object. */
export function loadScenario(ref: string | ScenarioFile, policy: LoadPolicy = {}): LoadedScenario {
  if (typeof ref !== 'string') return parseScenario(ref, `Scenario "${typeof ref?.name === 'string' ? ref.name : '(inline)'}"`, { compiled: policy.compiled })
  const { source, text } = readScenarioFile(ref, policy.redact ?? false)
  const checked = (policy.checked ?? builtChecks()).get(scenarioDigest(text))
  // frozen as a validated one is, whoever gave the checked form
  if (checked !== undefined) return deepFreeze(checked)
  return parseScenario(parseJson(text, source, policy.redact ?? false), `Scenario file ${source}`, policy)
}
