// `npm run lint`'s import check: the package's folders depend on each other one way only.
// Fails (exit 1) on any import circle among src/ and schemas/, and on an import that goes
// against the layers of docs/architecture.md: core and schemas use no product; the
// profile uses core; the fake and the contract kit use core and the profile, never each
// other (the contract kit must work against any deployment, so it cannot lean on the
// fake's store); the recorder (`jobboard-kit record`) uses the contract kit's client to
// read a deployment and the fake's scenario loader to check what it writes, so it sits
// above both; the proxy (`jobboard-kit proxy`) uses the fake's journal, verdict and page
// and the contract kit's answer checks (and may use the recorder), above all three; the
// command line and src/index.ts may use everything.
import madge from 'madge'

/** The folders of src/ a folder may import from (besides itself and schemas/). */
const ALLOWED = {
  core: [],
  profile: ['core'],
  fake: ['core', 'profile'],
  contract: ['core', 'profile'],
  record: ['core', 'profile', 'fake', 'contract'],
  proxy: ['core', 'profile', 'fake', 'contract', 'record'],
  cli: ['core', 'profile', 'fake', 'contract', 'record', 'proxy'],
}

/** Folders a layer may not reach into even where it may use the product: the recorder reads the scenario format, never the board; nor does the proxy, which stands before another. */
const FORBIDDEN = { record: ['src/fake/store/'], proxy: ['src/fake/store/'] }

const graph = await madge(['src', 'schemas'], {
  baseDir: new URL('..', import.meta.url).pathname,
  fileExtensions: ['ts'],
  tsConfig: new URL('../tsconfig.json', import.meta.url).pathname,
})
const problems = []
for (const circle of graph.circular()) problems.push(`import circle: ${[...circle, circle[0]].join(' → ')}`)

const layerOf = (file) => {
  if (file.startsWith('schemas/')) return 'schemas'
  const match = /^src\/([^/]+)\//.exec(file)
  return match ? match[1] : file === 'src/index.ts' ? 'face' : 'root'
}
for (const [file, imports] of Object.entries(graph.obj())) {
  const from = layerOf(file)
  if (from === 'root') problems.push(`${file}: src/ holds only index.ts and the product folders (docs/architecture.md)`)
  for (const target of imports) {
    const to = layerOf(target)
    if (to === from || to === 'schemas' || from === 'face') continue
    if (from === 'schemas') problems.push(`${file} imports ${target}: schemas/ import nothing from src/`)
    else if ((FORBIDDEN[from] ?? []).some((folder) => target.startsWith(folder))) problems.push(`${file} imports ${target}: src/${from}/ may not use ${FORBIDDEN[from].join(', ')}`)
    else if (!(ALLOWED[from] ?? []).includes(to)) problems.push(`${file} imports ${target}: src/${from}/ may import only from ${[...(ALLOWED[from] ?? []), 'schemas'].map((l) => (l === 'schemas' ? 'schemas/' : `src/${l}/`)).join(', ')}`)
  }
}
const files = Object.keys(graph.obj()).length
if (problems.length > 0) {
  process.stderr.write(`${problems.join('\n')}\n${problems.length} import problem(s) in ${files} files\n`)
  process.exit(1)
}
process.stdout.write(`imports: ${files} files, no circle, every import along the layers\n`)
