// Property: a valid compact saved state, mutated in many hostile ways (entries removed,
// duplicated, reordered; wrong types; odd ids and counts; records that collide with
// generated ones of another owner; deletions and counters that do not hold; scenario
// changes that leave written records dangling; deep nesting, long strings), PUT over
// the control API is either refused with a 4xx `{status, message}` naming the field and
// the board left byte-identical, or accepted as a board that saves, restores and answers.
import type { FastifyInstance } from 'fastify'
import fc from 'fast-check'
import t from 'tap'
import { BoardInputError } from '../../../src/core/errors.js'
import type { BoardState, CompactBoardState } from '../../../src/core/types.js'
import { allPages, board, call } from '../../helpers/board.js'
import { hostileString, hostileValue, nested, PROPERTY_SEED, prototypeClean } from '../../helpers/hostile.js'
import { boardUrls, control, putState, savedText, writeMix } from '../../helpers/state.js'
import { jobInputSample } from '../../fixtures/samples.js'
import { runs } from '../../helpers/deep.js'

// biome-ignore lint/suspicious/noExplicitAny: a state being mutated is any JSON
type Mutable = any
interface Base {
  name: string
  compact: CompactBoardState
  full: BoardState
}
/** One change to a state, named for a counterexample. */
interface Mutation {
  label: string
  apply: (state: Mutable, base: Base) => void
}
const mutation = (label: string, apply: Mutation['apply']): Mutation => ({ label, apply, [fc.toStringMethod]: () => label }) as Mutation

const LISTS = ['jobs', 'candidates', 'applications', 'timesheets', 'files', 'marketing'] as const
const ODD_NUMBERS = [-1, 0, 0.5, 1.5, -0, 2 ** 31, 2 ** 32, 2 ** 53, 2 ** 53 + 2, 1e308, -1e308, 99_999, '1', 'NaN', null, true, [], {}] as const

/** Every path to a value in a state, below the top (the first two entries of a list). */
function paths(node: unknown, path: Array<string | number> = [], out: Array<Array<string | number>> = []): Array<Array<string | number>> {
  if (path.length > 0) out.push(path)
  if (node !== null && typeof node === 'object' && path.length < 7) {
    const children: Array<[string | number, unknown]> = Array.isArray(node) ? node.slice(0, 2).map((child, i) => [i, child]) : Object.entries(node)
    for (const [key, child] of children) paths(child, [...path, key], out)
  }
  return out
}
const at = (state: Mutable, path: ReadonlyArray<string | number>) => path.reduce((node, key) => node?.[key], state)
const setAt = (state: Mutable, path: ReadonlyArray<string | number>, value: unknown) => {
  const parent = at(state, path.slice(0, -1))
  // a copy: the arbitraries share their objects between runs
  if (parent !== null && typeof parent === 'object') parent[path.at(-1) as string] = structuredClone(value)
}
/** Sets a key as JSON.parse would, even `__proto__`, without touching Object.prototype. */
const own = (node: object, key: string, value: unknown) => Object.defineProperty(node, key, { value, enumerable: true, writable: true, configurable: true })
/** A generated record of the full state, with an id the compact state may reuse. */
const generatedOf = (base: Base, list: 'candidates' | 'timesheets' | 'files' | 'marketing' | 'jobs', index: number) => {
  const records = base.full.store[list] as Mutable[]
  return structuredClone(records[index % records.length])
}

const index = fc.nat(200)
const list = fc.constantFrom(...LISTS)

/** Changes to the shape of the state anywhere: a value replaced, odd numbers, deep values, long strings. */
const anywhere = (bases: Base[]) => {
  const all = bases.map((b) => paths(b.compact))
  const pathArb = fc.nat().map((n) => (b: Base) => {
    const own = all[bases.indexOf(b)] as Array<Array<string | number>>
    return own[n % own.length] as Array<string | number>
  })
  return fc.oneof(
    fc.tuple(pathArb, hostileValue).map(([pick, value]) => mutation(`a value set to ${JSON.stringify(value)?.slice(0, 60)}`, (s, b) => setAt(s, pick(b), value))),
    fc.tuple(pathArb, fc.constantFrom(...ODD_NUMBERS)).map(([pick, value]) => mutation(`a value set to ${JSON.stringify(value)}`, (s, b) => setAt(s, pick(b), value))),
    fc.tuple(pathArb, fc.integer({ min: 65, max: 400 })).map(([pick, depth]) => mutation(`a value nested ${depth} deep`, (s, b) => setAt(s, pick(b), nested(depth)))),
    fc.tuple(pathArb, fc.integer({ min: 1000, max: 200_000 })).map(([pick, n]) => mutation(`a value ${n} characters long`, (s, b) => setAt(s, pick(b), 'x'.repeat(n)))),
    fc.tuple(pathArb, hostileString).map(([pick, key]) => mutation(`an unknown key ${JSON.stringify(key.slice(0, 20))}`, (s, b) => {
      const node = at(s, pick(b))
      if (node !== null && typeof node === 'object' && !Array.isArray(node)) own(node, key, 1)
    })),
  )
}

const jobWrittenAs = (i: number, id: number) =>
  mutation(`a generated job ${i} written with id ${id}`, (s, b) => {
    const record = generatedOf(b, 'jobs', i)
    record.id = id
    s.store.written.jobs.push(record)
  })
const countOf = (name: string, n: number) => mutation(`scenario.counts.${name} = ${n}`, (s) => (s.scenario.counts[name] = n))
const nowAt = (now: string) =>
  mutation(`scenario.now and clock.now = ${now}`, (s) => {
    s.scenario.now = now
    s.clock.now = now
  })

/** Changes to the written lists: removed, duplicated, reordered, ids moved. */
const lists = fc.oneof(
  fc.tuple(list, index).map(([name, i]) => mutation(`written.${name}[${i}] removed`, (s) => s.store.written[name].splice(i % Math.max(1, s.store.written[name].length), 1))),
  fc.tuple(list, index).map(([name, i]) =>
    mutation(`written.${name}[${i}] duplicated`, (s) => {
      const entries = s.store.written[name]
      if (entries.length > 0) entries.push(structuredClone(entries[i % entries.length]))
    }),
  ),
  list.map((name) => mutation(`written.${name} reversed`, (s) => s.store.written[name].reverse())),
  fc.tuple(list, index, fc.constantFrom(...ODD_NUMBERS, 1, 2, 3, 5, 14, 15, 49, 1000)).map(([name, i, id]) =>
    mutation(`written.${name}[${i}] id set to ${JSON.stringify(id)}`, (s) => {
      const entries = s.store.written[name]
      if (entries.length === 0) return
      const entry = entries[i % entries.length]
      if (name === 'applications') entry.record.id = structuredClone(id)
      else entry.id = structuredClone(id)
    }),
  ),
)

/** Written records that reuse the id of a generated record of another owner, or point at owners that are not there. */
const collisions = fc.oneof(
  fc.tuple(fc.constantFrom('timesheets', 'files', 'marketing' as const), index, fc.integer({ min: 0, max: 100 })).map(([name, i, owner]) =>
    mutation(`a generated ${name} record ${i} written over as candidate ${owner}'s`, (s, b) => {
      const record = generatedOf(b, name, i)
      if (name === 'timesheets') record.candidate.id = owner
      else if (name === 'files') record.candidate_id = owner
      else record.candidate_id = owner
      if (name === 'marketing') s.store.written.marketing.push({ id: (i % b.full.store.marketing.length) + 1, record })
      else s.store.written[name].push(record)
    }),
  ),
  fc.tuple(index, index).map(([i, j]) =>
    mutation(`a generated application ${i} written over as another candidate's (${j})`, (s, b) => {
      const entry = structuredClone(b.full.store.applications[i % b.full.store.applications.length]) as Mutable
      entry.candidate_id = (b.full.store.candidates[j % b.full.store.candidates.length] as { id: number }).id
      s.store.written.applications.push(entry)
    }),
  ),
  fc.tuple(index, fc.constantFrom(1, 2, 7, 15, 100, 10_000, 2147483647)).map(([i, id]) =>
    mutation(`a generated candidate ${i} written with id ${id}`, (s, b) => {
      const record = generatedOf(b, 'candidates', i)
      record.id = id
      s.store.written.candidates.push(record)
    }),
  ),
  fc.tuple(index, fc.constantFrom(1, 3, 7, 14, 15, 16, 100, 10_000, 2147483646, 2147483647)).map(([i, id]) => jobWrittenAs(i, id)),
)

/** Generated records written over as they are, or pointing at jobs and files the board does not hold. */
const overlays = fc.oneof(
  fc.tuple(fc.constantFrom('jobs', 'candidates', 'timesheets', 'files' as const), index).map(([name, i]) =>
    mutation(`a generated ${name} record ${i} written over unchanged`, (s, b) => s.store.written[name].push(generatedOf(b, name, i))),
  ),
  fc.tuple(index, fc.constantFrom(1, 2, 15, 16, 999)).map(([i, job]) =>
    mutation(`a generated application ${i} written for job ${job}`, (s, b) => {
      const entry = structuredClone(b.full.store.applications[i % b.full.store.applications.length]) as Mutable
      entry.record.id = 10_000 + i
      entry.record.vacancy.id = job
      s.store.written.applications.push(entry)
    }),
  ),
  fc.tuple(index, fc.constantFrom(1, 2, 3, 999)).map(([i, job]) =>
    mutation(`a generated job ${i} written with id ${job} and deleted`, (s, b) => {
      const record = generatedOf(b, 'jobs', i)
      record.id = job
      s.store.written.jobs.push(record)
      s.store.deletedJobs.push(job)
    }),
  ),
  fc.tuple(index, fc.constantFrom(1, 2, 3)).map(([i, job]) =>
    mutation(`generated job ${job} deleted and written over (${i})`, (s, b) => {
      const record = generatedOf(b, 'jobs', i)
      record.id = job
      s.store.written.jobs.push(record)
      s.store.deleted.jobs.push(job)
      s.store.deletedJobs.push(job)
    }),
  ),
  fc.tuple(index, index, fc.constantFrom('resumes', 'documents', 'timesheets')).map(([i, j, kind]) =>
    mutation(`a generated candidate ${i} listing the ${kind} of candidate ${j}`, (s, b) => {
      const record = generatedOf(b, 'candidates', i)
      const other = generatedOf(b, 'candidates', j)
      record[kind] = [...(record[kind] ?? []), ...(other[kind] ?? [])]
      s.store.written.candidates.push(record)
    }),
  ),
  fc.tuple(index, fc.constantFrom(1, 2, 999)).map(([i, file]) =>
    mutation(`a generated candidate ${i} listing resume ${file}`, (s, b) => {
      const record = generatedOf(b, 'candidates', i)
      const href = `https://board.example.com/api/v1/candidates/resume/${file}`
      record.resumes = [...(record.resumes ?? []), { ...(record.resumes?.[0] ?? { filename: 'x.pdf', filesize: 10 }), id: file, href }]
      s.store.written.candidates.push(record)
    }),
  ),
)

/** Deletions, counters and the generated flag that do not hold together. */
const counters = fc.oneof(
  fc.constantFrom(1, 2, 6, 14, 15, 16, 49, 1000, 0, -1, 2 ** 53).map((id) =>
    mutation(`deleted.jobs and deletedJobs gain ${id}`, (s) => {
      s.store.deleted.jobs.push(id)
      s.store.deletedJobs.push(id)
    }),
  ),
  fc.constantFrom(1, 2, 6, 14, 15, 16, 1000).map((id) => mutation(`deletedJobs gains ${id}`, (s) => s.store.deletedJobs.push(id))),
  fc.constantFrom(1, 2, 6, 14, 15, 16, 1000).map((id) => mutation(`deleted.jobs gains ${id}`, (s) => s.store.deleted.jobs.push(id))),
  fc.constant(mutation('deletedJobs emptied', (s) => s.store.deletedJobs.splice(0))),
  fc.constant(mutation('deleted.jobs emptied', (s) => s.store.deleted.jobs.splice(0))),
  fc.constantFrom('candidates', 'applications', 'files').map((kind) => mutation(`deleted.${kind} added`, (s) => (s.store.deleted[kind] = [1]))),
  fc.constantFrom(0, 1, 2, 7, 14, 15, 16, 1000, 2147483646, 2147483647, 2 ** 31, 2 ** 53).map((id) => mutation(`nextJobId set to ${id}`, (s) => (s.store.nextJobId = id))),
  fc.constantFrom(0, 1, 1000, 2 ** 53).map((n) => mutation(`adds set to ${n}`, (s) => (s.store.adds = n))),
  fc.constant(mutation('generated set to false', (s) => (s.store.generated = false))),
  fc.constant(mutation('generated set to true', (s) => (s.store.generated = true))),
)

/** Metrics with odd labels, months and counts. */
const metrics = fc.oneof(
  fc.tuple(fc.constantFrom('Applications', 'Job searches', 'Nope', '__proto__', ''), fc.constantFrom('2026-13', '2026-00', '0000-01', '9999-12', '2026-1', '2026-11', '1970-01'), fc.constantFrom(0, 1, -1, 0.5, 2 ** 53, 1e308)).map(
    ([label, month, count]) =>
      mutation(`metrics.counts[${label}][${month}] = ${count}`, (s) => {
        const counts = s.store.metrics.counts
        if (!Object.hasOwn(counts, label)) own(counts, label, {})
        own(counts[label], month, count)
      }),
  ),
  fc.tuple(fc.constantFrom('Applications', 'Job searches', 'Nope'), fc.constantFrom('2026-13', '0000-01', '9999-12', '2030-01', '1970-01', 2026)).map(([label, month]) =>
    mutation(`metrics.starts[${label}] = ${month}`, (s) => own(s.store.metrics.starts, label, month)),
  ),
  fc.constant(mutation('metrics.counts emptied', (s) => (s.store.metrics.counts = {}))),
)

/** Scenario changes: another seed or size, so that written records and deletions may dangle. */
const scenario = fc.oneof(
  fc.constantFrom(0, 1, 404, 20261122, 4294967295, 4294967296, -1, 1.5).map((seed) => mutation(`scenario.seed = ${seed}`, (s) => (s.scenario.seed = seed))),
  fc.tuple(fc.constantFrom('jobs', 'candidates', 'applications', 'timesheets', 'resumes', 'documents', 'marketing'), fc.constantFrom(0, 1, 2, 5, 100, -1, 1e9)).map(([name, n]) => countOf(name, n)),
  fc.constant(mutation('scenario.records emptied', (s) => (s.scenario.records = {}))),
  fc.tuple(fc.constantFrom('jobs', 'candidates', 'applications', 'marketing'), fc.constantFrom(1, 2, 99, 0)).map(([name, id]) =>
    mutation(`scenario.records.${name} gains one with id ${id}`, (s) => {
      s.scenario.records ??= {}
      s.scenario.records[name] = [...(s.scenario.records[name] ?? []), { id, candidate_id: id, job_id: id }]
    }),
  ),
  fc.constantFrom(1, 2, 120, 121).map((n) => mutation(`scenario.historyMonths = ${n}`, (s) => (s.scenario.historyMonths = n))),
  fc.constantFrom('1970-01-01 00:00:00', '9999-12-31 23:59:59', '1969-12-31 23:59:59').map((now) => mutation(`clock.now = ${now}`, (s) => (s.clock.now = now))),
  fc.constantFrom(0, 1, 3, 1001).map((n) => mutation(`scenario.pageSize = ${n}`, (s) => (s.scenario.pageSize = n))),
  fc.constantFrom('1999-01-01 00:00:00', '2040-01-01 00:00:00', '2026-02-30 10:00:00', '9999-12-31 23:59:59', '1970-01-01 00:00:00').map(nowAt),
)

/** Writes of every kind, made on an accepted board. */
const WRITES: Array<[string, object]> = [
  ['/__mock/candidates', { resumes: [{}], documents: [{}] }],
  ['/__mock/applications', {}],
  ['/__mock/timesheets', {}],
  ['/__mock/marketing', {}],
  ['/__mock/jobs', jobInputSample()],
  ['/api/v1/job/add', jobInputSample()],
  ['/api/v1/job/close', { id: 2 }],
  ['/api/v1/job/expire', { id: 4 }],
  ['/api/v1/job/repost', { id: 5 }],
  ['/api/v1/job/delete', { id: 3 }],
]

/** Reads a board through every list and a broad set of URLs: the statuses of those that answer 5xx. */
async function brokenAnswers(app: FastifyInstance): Promise<string[]> {
  const broken: string[] = []
  for (const list of ['candidates', 'applications', 'timesheets', 'marketing']) {
    try {
      await allPages(app, `/api/v1/${list}/list`)
    } catch (error) {
      broken.push(`${list}: ${(error as Error).message}`)
    }
  }
  for (const url of await boardUrls(app)) {
    const answer = await call(app, url)
    if (answer.status >= 500) broken.push(`${url} → ${answer.status}`)
  }
  return broken
}

t.test('a hostile compact state is refused naming the field and changes nothing, or accepted as a board that round-trips and answers', async (t) => {
  const sources = [
    ['default', await board(t)],
    ['edge-cases', await board(t, { scenario: 'edge-cases' })],
    ['after writes of every kind', await board(t)],
  ] as const
  await writeMix(sources[2][1])
  const bases: Base[] = []
  for (const [name, app] of sources) {
    bases.push({ name, compact: JSON.parse(await savedText(app, 'compact')), full: JSON.parse(await savedText(app)) })
  }
  const [app, mirror] = [await board(t), await board(t)]
  let failures = 0
  const fail = (message: string) => {
    failures += 1
    t.fail(message)
  }
  const any = fc.oneof(anywhere(bases), lists, collisions, overlays, counters, metrics, scenario)
  let accepted = 0
  let last = 'nothing'
  await fc.assert(
    fc.asyncProperty(fc.nat(bases.length - 1), fc.array(any, { minLength: 1, maxLength: 3 }), async (which, changes) => {
      const base = bases[which] as Base
      try {
        app.controller.importState(structuredClone(base.compact))
      } catch (error) {
        return fail(`${base.name} no longer restores after ${last}: ${(error as Error).message}`)
      }
      const state = structuredClone(base.compact) as Mutable
      for (const change of changes) {
        try {
          change.apply(state, base)
        } catch {
          // a change that does not fit a state an earlier change broke (written set to false) is left out
        }
      }
      const what = `${base.name}: ${changes.map((c) => c.label).join('; ')}`
      last = what
      const before = await savedText(app)
      const answer = await app.inject({ method: 'PUT', url: '/__mock/state', headers: { 'content-type': 'application/json' }, payload: JSON.stringify(state) })
      if (answer.statusCode >= 500 || answer.statusCode < 200 || (answer.statusCode >= 300 && answer.statusCode < 400)) {
        return fail(`${what} → ${answer.statusCode}: ${answer.body.slice(0, 300)}`)
      }
      if (answer.statusCode >= 400) {
        const body = answer.json() as Record<string, unknown>
        if (Object.keys(body).sort().join() !== 'message,status' || body.status !== answer.statusCode) fail(`${what} → ${answer.body.slice(0, 300)}`)
        else if (!/^The state('s scenario)? is invalid.*(store|scenario|clock|format|form|version)|^The body (nests deeper|holds the key)/s.test(String(body.message))) fail(`${what} → a message naming no field: ${body.message}`)
        if ((await savedText(app)) !== before) fail(`${what} was refused but changed the board`)
        // in process, the same state is refused with the documented error
        const text = JSON.stringify(state)
        try {
          app.controller.importState(state)
          fail(`${what}: importState took what PUT refused`)
        } catch (error) {
          if (!(error instanceof BoardInputError)) fail(`${what}: importState threw ${(error as Error)?.constructor?.name}: ${(error as Error).message}`)
        }
        if (JSON.stringify(state) !== text) fail(`${what}: importState changed the state it was given`)
        return
      }
      accepted += 1
      const [full, compact] = [await savedText(app), await savedText(app, 'compact')]
      const compactAgain = await putState(mirror, compact)
      if (compactAgain.status !== 200) return fail(`${what}: its compact export is refused: ${compactAgain.body.message}`)
      if ((await savedText(mirror)) !== full) fail(`${what}: its compact export restores another full state`)
      if ((await savedText(mirror, 'compact')) !== compact) fail(`${what}: its compact export restores another compact state`)
      const fullAgain = await putState(mirror, full)
      if (fullAgain.status !== 200) return fail(`${what}: its full export is refused: ${fullAgain.body.message}`)
      if ((await savedText(mirror)) !== full) fail(`${what}: its full export restores another full state`)
      for (const problem of await brokenAnswers(app)) fail(`${what}: ${problem}`)
      // the board takes writes of every kind and still saves a state that restores
      for (const [url, body] of WRITES) {
        const answer = url.startsWith('/api') ? (await call(app, { method: 'POST', url, payload: body })).raw : await control(app, url, body)
        if (answer.statusCode >= 500) fail(`${what}: then POST ${url} → ${answer.statusCode} ${answer.body.slice(0, 200)}`)
      }
      const after = await savedText(app)
      const again = await putState(mirror, await savedText(app, 'compact'))
      if (again.status !== 200) fail(`${what}: after writes, its compact export is refused: ${again.body.message}`)
      else if ((await savedText(mirror)) !== after) fail(`${what}: after writes, its compact export restores another board`)
    }),
    // HUNT_RUNS and HUNT_SEED let a bug hunt run longer or elsewhere; the suite runs the fixed seed
    {
      numRuns: Number(process.env.HUNT_RUNS ?? runs(150)),
      seed: Number(process.env.HUNT_SEED ?? PROPERTY_SEED),
      // the counterexamples of the bugs this property found, kept whatever the seed draws (bases: 0 default, 1 edge-cases)
      examples: [
        [0, [countOf('candidates', 0)]],
        [1, [jobWrittenAs(1, 2147483647)]],
        [0, [nowAt('9999-12-31 23:59:59')]],
        [1, [nowAt('9999-12-31 23:59:59')]],
        [0, [nowAt('1970-01-01 00:00:00')]],
      ],
    },
  )
  t.equal(failures, 0, 'every hostile state is refused cleanly or accepted whole')
  t.ok(accepted > 0, `some mutated states are still valid and accepted (${accepted})`)
  t.ok(prototypeClean(), 'Object.prototype is unpolluted')
})
