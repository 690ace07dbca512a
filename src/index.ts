// The package entry: the schemas and the types derived from them, the fake for tests
// (createMockServer, buildApp), and the pieces a consumer may want to reuse. nock
// interception lives in `jobboard-kit/nock`, so importing this never patches http.
export * as schemas from '../schemas/index.js'
export type * from './core/types.js'
export { FIELD_VALUES, JOB_INDUSTRIES, splitIndustry, sectorDisciplinesOf } from '../schemas/values.js'
export { createMockServer, isLoopback, ServerError, type MockServer, type MockStore } from './fake/server.js'
export { buildApp, type BuildOptions } from './fake/app.js'
export type { ClockControl, ExportOptions, SavedBoard } from './fake/control.js'
export { BoardError, BoardInputError, ERROR_CODES, type ErrorCode } from './core/errors.js'
export type { ArmedFault } from './fake/http/faults.js'
export type { ResetOptions } from './fake/board.js'
export type { Page, ListQuery } from './fake/store/store.js'
export { loadScenario, scenarioNames, ScenarioError } from './fake/scenario.js'
export { resolveOptions, OptionsError } from './fake/options.js'
export { createAjv, bindFieldValues, explain } from './core/validation.js'
export { loadProfile, parseProfile, diffProfiles, ProfileError, type LoadedProfile, type ProfileOverride } from './profile/profile.js'
export { sameShape, drawFrom, type Draw } from './core/shape.js'
