// The system tools and built things some tests need (a browser, a pseudo-terminal, curl,
// python3, podman, the built executable): which ones this machine has, and whether their
// absence skips a test or fails it. On a developer's machine `npm test` skips a test whose
// tool is missing, naming why and how to get it; `.ci/run`, which installs them all, sets
// JOBBOARD_KIT_REQUIRE_TOOLS=1, and a missing one then fails the test that needed it
// instead of hiding it. `needs`/`haveTools` take the tools named here; `onPath` and
// `unlessMissing` serve tests that look for something else (the executable, a builder).
import { spawnSync } from 'node:child_process'
import { accessSync, constants, existsSync } from 'node:fs'
import { delimiter, join } from 'node:path'
import t, { type Test } from 'tap'

/** The environment variable that makes a missing tool a failure. */
export const REQUIRE_TOOLS = 'JOBBOARD_KIT_REQUIRE_TOOLS'

interface Tool {
  /** What the tests look for, as a reader would check it. */
  what: string
  present(): boolean
  /** How to get it on Debian, the machine `.ci/run` runs on. */
  install: string
}

/** Whether `command` runs at all (it is on PATH and starts). */
const runs = (command: string, args: string[]) => {
  const run = spawnSync(command, args, { stdio: 'ignore', timeout: 10_000 })
  return run.error === undefined && run.status === 0
}

/** Where the docs-page test finds Debian's chromium (playwright-core drives it; it downloads no browser). */
export const CHROMIUM = '/usr/bin/chromium'

const TOOLS = {
  chromium: { what: CHROMIUM, present: () => existsSync(CHROMIUM), install: 'apt-get install -y chromium' },
  curl: { what: 'curl on PATH', present: () => runs('curl', ['--version']), install: 'apt-get install -y curl' },
  script: { what: 'script(1) from util-linux on PATH', present: () => runs('script', ['--version']), install: 'apt-get install -y bsdutils' },
  python3: { what: 'python3 on PATH', present: () => runs('python3', ['--version']), install: 'apt-get install -y python3' },
  podman: { what: 'podman on PATH', present: () => runs('podman', ['--version']), install: 'apt-get install -y podman' },
} satisfies Record<string, Tool>

export type ToolName = keyof typeof TOOLS

/** Whether missing tools fail the tests that need them (`.ci/run`) rather than skip them. */
export const toolsRequired = (env: NodeJS.ProcessEnv = process.env) => env[REQUIRE_TOOLS] === '1'

/** The tools of `names` this machine lacks. */
export const missingTools = (...names: ToolName[]): ToolName[] => names.filter((name) => !TOOLS[name].present())

/**
 * tap's options for a test that needs `names`: a skip naming what is missing and how to
 * install it when the machine lacks one and nothing requires it; else none, and the test
 * runs (and, where a tool is missing, fails through `haveTools`).
 */
export function needs(...names: ToolName[]): { skip: string | false } {
  const missing = missingTools(...names)
  if (missing.length === 0 || toolsRequired()) return { skip: false }
  const what = missing.map((name) => TOOLS[name].what).join(', ')
  const install = missing.map((name) => TOOLS[name].install).join(' && ')
  return { skip: `needs ${what}, not found on this machine: install it with \`${install}\` (${REQUIRE_TOOLS}=1, as .ci/run sets, makes this a failure)` }
}

/** Asserts that the tools of `names` are there (first thing in a test given `needs`): false, and a failure, when one is missing. */
export function haveTools(t: Test, ...names: ToolName[]): boolean {
  let all = true
  for (const name of names) {
    const tool = TOOLS[name]
    all = t.ok(tool.present(), `${tool.what} is installed (${tool.install}; .ci/run installs it)`) && all
  }
  return all
}

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
  if (toolsRequired()) {
    t.fail(`${missing} (${REQUIRE_TOOLS}=1: every tool must be here)`)
    return false
  }
  return missing
}

/**
 * The spec as CI has it: a copy of shared/ beside the clone (or JOBBOARD_KIT_SPEC). A
 * checkout without it (a user's `npm ci && npm test`) skips the tests that quote it, saying
 * so; `.ci/run` requires it.
 */
export const SPEC_PATH = process.env.JOBBOARD_KIT_SPEC ?? join(import.meta.dirname ?? new URL('.', import.meta.url).pathname, '..', '..', '..', 'shared', 'spec', 'job-board-api.md')
export const noSpec = (): string | false =>
  unlessMissing(existsSync(SPEC_PATH) ? undefined : `the spec is not beside the checkout (${SPEC_PATH}; set JOBBOARD_KIT_SPEC to its path)`)
