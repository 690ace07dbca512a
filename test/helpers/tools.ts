// For tests that need something this machine may lack (the built executable, python3,
// podman): without it they skip, naming what is missing and how to get it; with
// JOBBOARD_KIT_REQUIRE_TOOLS=1 (.ci/run sets it, after installing them) a missing one fails.
import { accessSync, constants } from 'node:fs'
import { delimiter, join } from 'node:path'
import t from 'tap'

/** The program's path on PATH, if it is there and runnable. */
export function onPath(name: string, path = process.env.PATH ?? ''): string | undefined {
  for (const dir of path.split(delimiter).filter(Boolean)) {
    try {
      accessSync(join(dir, name), constants.X_OK)
      return join(dir, name)
    } catch {
      // not in this folder
    }
  }
  return undefined
}

/**
 * The `skip` option of a test that needs something: false when `missing` is undefined;
 * else the reason to skip, or, when tools are required here, a failing assertion and false
 * (so the test runs and fails where the tool is used).
 */
export function unlessMissing(missing: string | undefined): string | false {
  if (missing === undefined) return false
  if (process.env.JOBBOARD_KIT_REQUIRE_TOOLS === '1') {
    t.fail(`${missing} (JOBBOARD_KIT_REQUIRE_TOOLS=1: every tool must be here)`)
    return false
  }
  return missing
}
