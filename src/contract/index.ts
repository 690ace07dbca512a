// The contract kit as a library (`jobboard-kit/contract`): run the checks from code
// rather than through `jobboard-kit contract`. Kept off the package entry, which a
// test of the fake imports, because the kit brings tap's core with it.
export { runContract, type RunIO, type RunResult, type ExitCode } from './run.js'
export { GROUPS, resolveSettings, UsageError, type ContractSettings, type ContractFlags, type Group } from './settings.js'
