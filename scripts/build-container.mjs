// `npm run build:container` (after `npm run build:exe`): stages the Containerfile's build
// context in dist/container/ — rootfs/jobboard-kit and every shared library `ldd` lists for
// it, at the same paths — then builds the image `jobboard-kit` with podman, or docker when
// there is no podman. FROM scratch: nothing is pulled from a registry. Prints the image's
// name on its last line. `--stage-only` stops after staging (for a builder run elsewhere).
import { execFileSync } from 'node:child_process'
import { chmodSync, copyFileSync, existsSync, mkdirSync, realpathSync, rmSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))
const exe = join(root, 'dist', 'exe', 'jobboard-kit')
const context = join(root, 'dist', 'container')
const rootfs = join(context, 'rootfs')
const IMAGE = process.env.JOBBOARD_KIT_IMAGE ?? 'localhost/jobboard-kit:latest'

if (!existsSync(exe)) throw new Error('dist/exe/jobboard-kit is missing: run `npm run build:exe` first')

/** The absolute paths `ldd` names for the executable (the loader included; not the kernel's vdso). */
function sharedLibraries() {
  const listing = execFileSync('ldd', [exe], { encoding: 'utf8' })
  const found = [...listing.matchAll(/(?:=>\s*)?(\/\S+)\s+\(0x/g)].map((match) => match[1])
  if (!found.some((path) => path.includes('ld-linux'))) throw new Error(`ldd named no dynamic loader:\n${listing}`)
  return found
}

rmSync(context, { recursive: true, force: true })
mkdirSync(rootfs, { recursive: true })
copyFileSync(exe, join(rootfs, 'jobboard-kit'))
chmodSync(join(rootfs, 'jobboard-kit'), 0o755)
for (const path of sharedLibraries()) {
  // under the name the executable asks for, with the bytes of the file it resolves to
  mkdirSync(join(rootfs, dirname(path)), { recursive: true })
  copyFileSync(realpathSync(path), join(rootfs, path))
}
copyFileSync(join(root, 'Containerfile'), join(context, 'Containerfile'))
process.stdout.write(`staged ${context}\n`)
if (process.argv.includes('--stage-only')) process.exit(0)

const works = (tool) => {
  try {
    execFileSync(tool, ['info'], { stdio: 'ignore', timeout: 30_000 })
    return true
  } catch {
    return false
  }
}
const builder = ['podman', 'docker'].find(works)
if (builder === undefined) throw new Error('neither podman nor docker can build here (`podman info` and `docker info` failed); the context is staged in dist/container/')
// podman writes OCI images by default, which have no HEALTHCHECK: the docker format keeps it
const format = builder === 'podman' ? ['--format', 'docker'] : []
execFileSync(builder, ['build', ...format, '--tag', IMAGE, '--file', join(context, 'Containerfile'), context], { stdio: ['ignore', 'inherit', 'inherit'] })
process.stdout.write(`built with ${builder}\n${IMAGE}\n`)
