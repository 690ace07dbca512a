// `npm run lint`'s import check: the structure drawing of src/ and schemas/ (madge), held to
// the layers of docs/architecture.md. Fails (exit 1) on an import circle, and on an arrow
// that runs back up: an import of a layer the importing folder may not use. The layers,
// from the bottom: schemas use nothing of src/; core (what every product uses) uses
// schemas alone; the profile uses core; the watching layer (src/watch: the journal, the
// verdict, the page and the verdict's outputs) uses core, taking exchanges from any
// source and knowing none of them; the fake uses the watching layer, core and the profile,
// and the contract kit core and the profile, never each other (the kit must work against
// any deployment, so it cannot lean on the fake's store); the recorder (`jobboard-kit
// record`) reads a deployment with the kit's client and checks what it writes with the
// fake's scenario format, so it sits above both; the proxy (`jobboard-kit proxy`) feeds
// the watching layer, holds answers to the kit's checks and may record, above all of them
// and never the fake's; the command line and src/index.ts may use everything.
//
// The recorder and the proxy may enter another product only by its face, never its
// internals, and that holds through any chain of imports (a third file that enters it for
// them is still their reach): FACES. Inside src/fake, the fake's floors (FAKE_FLOORS) are
// held the same way: a file may import its own floor and those below it.
import madge from 'madge'

/** The folders of src/ a folder may import from directly (besides itself and schemas/). */
const ALLOWED = {
  core: [],
  profile: ['core'],
  watch: ['core'],
  fake: ['core', 'profile', 'watch'],
  contract: ['core', 'profile'],
  record: ['core', 'profile', 'fake', 'contract'],
  proxy: ['core', 'profile', 'watch', 'contract', 'record'],
  cli: ['core', 'profile', 'watch', 'fake', 'contract', 'record', 'proxy'],
}

/**
 * The faces of the products the recorder and the proxy use: where they may enter each,
 * directly or through any chain of imports (a third file that enters it for them is still
 * their reach). Of the fake only its scenario format (scenario.ts: load and check a
 * scenario, what the recorder writes; the proxy itself imports nothing of src/fake, as
 * ALLOWED says, and reaches this face only through the recorder); of the contract kit
 * anything but the checks of a run (groups/). Once entered by its face, what a product's
 * own files import is its own business.
 */
const FACES = {
  fake: { users: ['record', 'proxy'], face: (file) => file === 'src/fake/scenario.ts', says: 'only by src/fake/scenario.ts' },
  contract: { users: ['record', 'proxy'], face: (file) => !file.startsWith('src/contract/groups/'), says: 'never by src/contract/groups/' },
}

/**
 * The fake's floors, from the bottom (docs/architecture.md, "The fake's floors"): a file of
 * src/fake may import from its own floor and those below it; an import of a floor above
 * runs back up. Every file of src/fake is on one floor.
 */
const FAKE_FLOORS = [
  ['the scenario format', 'src/fake/scenario.ts', 'src/fake/options.ts', 'src/fake/job-fields.ts'],
  ['the records', 'src/fake/store/'],
  ['a board and its accounts', 'src/fake/board/', 'src/fake/activity/', 'src/fake/accounts.ts', 'src/fake/control-api.ts'],
  ['the request concerns', 'src/fake/http/'],
  ['the routes', 'src/fake/routes/', 'src/fake/openapi-document.ts', 'src/fake/board-view.ts'],
  ['the apps of the routes', 'src/fake/lazy.ts', 'src/fake/shared-app.ts'],
  ['one fake', 'src/fake/app.ts'],
  ['the doors', 'src/fake/server.ts', 'src/fake/nock.ts', 'src/fake/first-answer.ts'],
]
/** The floor of a file of src/fake (its index in FAKE_FLOORS), or -1. */
const floorOf = (file) => FAKE_FLOORS.findIndex(([, ...paths]) => paths.some((path) => (path.endsWith('/') ? file.startsWith(path) : file === path)))

const graph = await madge(['src', 'schemas'], {
  baseDir: new URL('..', import.meta.url).pathname,
  fileExtensions: ['ts'],
  tsConfig: new URL('../tsconfig.json', import.meta.url).pathname,
})
const imports = graph.obj()
const problems = []
for (const circle of graph.circular()) problems.push(`import circle: ${[...circle, circle[0]].join(' → ')}`)

const layerOf = (file) => {
  if (file.startsWith('schemas/')) return 'schemas'
  const match = /^src\/([^/]+)\//.exec(file)
  return match ? match[1] : file === 'src/index.ts' ? 'face' : 'root'
}
const shown = (layers) => [...layers, 'schemas'].map((l) => (l === 'schemas' ? 'schemas/' : `src/${l}/`)).join(', ')
for (const [file, targets] of Object.entries(imports)) {
  const from = layerOf(file)
  if (from === 'root') problems.push(`${file}: src/ holds only index.ts and the product folders (docs/architecture.md)`)
  for (const target of targets) {
    const to = layerOf(target)
    if (to === from || to === 'schemas' || from === 'face') continue
    if (from === 'schemas') problems.push(`${file} imports ${target}: runs back up (schemas/ import nothing from src/)`)
    else if (!(ALLOWED[from] ?? []).includes(to)) problems.push(`${file} imports ${target}: runs back up or across (src/${from}/ may import only from ${shown(ALLOWED[from] ?? [])})`)
  }
}

for (const [file, targets] of Object.entries(imports)) {
  if (!file.startsWith('src/fake/')) continue
  const from = floorOf(file)
  if (from < 0) {
    problems.push(`${file}: on no floor of src/fake (FAKE_FLOORS in scripts/check-imports.mjs, docs/architecture.md)`)
    continue
  }
  for (const target of targets) {
    const to = target.startsWith('src/fake/') ? floorOf(target) : -1
    if (to > from) problems.push(`${file} imports ${target}: runs back up, from ${FAKE_FLOORS[from][0]} to ${FAKE_FLOORS[to][0]} (src/fake's floors, bottom first: ${FAKE_FLOORS.map(([name]) => name).join(' < ')})`)
  }
}

/** Each chain of imports from `file` that enters a product past its face for `user`: the shortest to each such entry, breadth first. */
function entries(file, user) {
  const before = new Map([[file, undefined]])
  const queue = [file]
  const found = []
  while (queue.length > 0) {
    const at = queue.shift()
    for (const next of imports[at] ?? []) {
      const into = FACES[layerOf(next)]
      if (layerOf(next) !== layerOf(at) && into?.users.includes(user) && !into.face(next)) {
        const chain = [next]
        for (let step = at; step !== undefined; step = before.get(step)) chain.unshift(step)
        found.push(`${chain.join(' → ')}: src/${user}/ may enter src/${layerOf(next)}/ ${into.says}, even through another file`)
      }
      if (before.has(next)) continue
      before.set(next, at)
      queue.push(next)
    }
  }
  return found
}
for (const file of Object.keys(imports)) problems.push(...new Set(entries(file, layerOf(file))))

const files = Object.keys(imports).length
if (problems.length > 0) {
  process.stderr.write(`${problems.join('\n')}\n${problems.length} import problem(s) in ${files} files\n`)
  process.exit(1)
}
process.stdout.write(`imports: ${files} files, no circle, no arrow running back up, no reach past a face\n`)
