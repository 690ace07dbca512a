// The package's own files that the code reads while it runs (the shipped scenarios and
// the build's check of them, package.json's version, swagger-ui's page files) as the single executable carries them:
// SEA assets built into it by scripts/build-exe.mjs (docs/exe.md), since an executable
// copied anywhere has no package folder beside it. From the package, each answers
// undefined and the callers read the package's files as they always have.
import sea from 'node:sea'

/** The asset keys the build writes and these functions read. */
export const ASSETS = {
  /** `{name, version}` of package.json */
  manifest: 'package.json',
  /** `{[name]: file text}` of scenarios/*.json */
  scenarios: 'scenarios.json',
  /** the build's checked scenarios (dist/precompiled/scenarios.json, src/fake/scenario.ts) */
  checkedScenarios: 'checked-scenarios.json',
  /** a swagger-ui page file, by its name in @fastify/swagger-ui's static folder */
  uiFile: (name: string) => `swagger-ui/${name}`,
} as const

/** Whether this process is the single executable. */
export const inExecutable = (): boolean => sea.isSea()

/** An asset's bytes; undefined outside the executable or when it has no such asset. */
export function executableAsset(key: string): Buffer | undefined {
  if (!sea.isSea()) return undefined
  try {
    return Buffer.from(sea.getAsset(key))
  } catch {
    return undefined
  }
}

/** The executable's version; undefined outside it. */
export function executableVersion(): string | undefined {
  const manifest = executableAsset(ASSETS.manifest)
  return manifest && (JSON.parse(manifest.toString('utf8')) as { version: string }).version
}

/** The shipped scenarios' texts by name, as the executable carries them; undefined outside it. */
export function executableScenarios(): Map<string, string> | undefined {
  const scenarios = executableAsset(ASSETS.scenarios)
  return scenarios && new Map(Object.entries(JSON.parse(scenarios.toString('utf8')) as Record<string, string>))
}
