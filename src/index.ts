// The package entry: the schemas, the types derived from them, and the fake's and the
// contract kit's programmatic APIs.
export * as schemas from '../schemas/index.js'
export type * from './types.js'
export { FIELD_VALUES, JOB_INDUSTRIES, splitIndustry, sectorDisciplinesOf } from '../schemas/values.js'
export { loadScenario, scenarioNames, ScenarioError } from './scenario.js'
export { resolveOptions, OptionsError } from './options.js'
export { createAjv, bindFieldValues, explain } from './validation.js'
