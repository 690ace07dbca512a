// How thorough a run is. `npm test` runs each property a tenth as many times as it can, so
// that the suite answers within a minute and a half; `npm run test:deep` (which .ci/run
// runs after it) sets JOBBOARD_KIT_DEEP=1 and runs every property at its full count, and
// the long runs that only it has (test/deep/). The seed is fixed either way, so a quick run
// draws the first cases of the deep one.
/** The environment variable `npm run test:deep` sets. */
export const DEEP = 'JOBBOARD_KIT_DEEP'

/** Whether this is the deep run. */
export const isDeep = (env: NodeJS.ProcessEnv = process.env) => env[DEEP] === '1'

/** A property's numRuns: `full` in the deep run, else a tenth of it (at least `least`). */
export const runs = (full: number, least = 5, env: NodeJS.ProcessEnv = process.env) => (isDeep(env) ? full : Math.min(full, Math.max(least, Math.ceil(full / 10))))
