// Loads a scenario, by name from scenarios/ or from a path, validates it against the
// scenario schema with its defaults filled in, and freezes it. A bad file fails with
// an error naming the file and the field.
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { basename, join, resolve } from 'node:path'
import { scenario as scenarioSchema } from '../schemas/scenario.js'
import { deepFreeze, type DeepReadonly } from './freeze.js'
import { SCENARIOS_DIR } from './paths.js'
import type { Scenario, ScenarioFile } from './types.js'
import { createAjv, explain } from './validation.js'

export type LoadedScenario = DeepReadonly<Scenario>

export class ScenarioError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'ScenarioError'
  }
}

/** The names of the scenarios shipped in scenarios/. */
export function scenarioNames(): string[] {
  return readdirSync(SCENARIOS_DIR)
    .filter((f) => f.endsWith('.json'))
    .map((f) => basename(f, '.json'))
    .sort()
}

function readScenarioFile(ref: string): { source: string; data: unknown } {
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
    return { source: path, data: JSON.parse(readFileSync(path, 'utf8')) as unknown }
  } catch (error) {
    throw new ScenarioError(`Scenario file ${path} is not valid JSON: ${(error as Error).message}`)
  }
}

/** Validates scenario data, fills in defaults and freezes it. */
export function parseScenario(data: unknown, source = 'scenario'): LoadedScenario {
  const validate = createAjv({ useDefaults: true }).compile<Scenario>(scenarioSchema)
  const copy = structuredClone(data)
  if (!validate(copy)) throw new ScenarioError(`${source} is invalid: ${explain(validate.errors ?? [], 'scenario', copy)}`)
  return deepFreeze(copy)
}

/** A scenario by name (scenarios/NAME.json), by path, or given as an object. */
export function loadScenario(ref: string | ScenarioFile): LoadedScenario {
  if (typeof ref !== 'string') return parseScenario(ref, `Scenario "${ref.name ?? '(inline)'}"`)
  const { source, data } = readScenarioFile(ref)
  return parseScenario(data, `Scenario file ${source}`)
}
