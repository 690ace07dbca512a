// Which walks a run reads in full (src/contract/walk.ts allot): the budget goes to the walks
// due first — never walked in full, then the one walked in full longest ago, the night
// turning the order of equals — each taking its middle pages while the budget lasts; the
// others are read by their first and last pages, lengthened by what is left; a walk larger
// than the budget is read by its ends and says so. The page runs a walk's entry names.
import t from 'tap'
import { allot, HEAD, pagesRead, TAIL, WALK_BUDGET } from '../../src/contract/walk.js'

const forms = (...lasts: Array<[string, number | undefined]>) => lasts.map(([id, last]) => ({ id, last }))

t.test('walks of a few pages go in full whatever the budget: their first and last pages are all there is', async (t) => {
  const given = allot(forms(['a', 1], ['b', 2], ['c', HEAD + TAIL]), {}, 0, 0)
  for (const id of ['a', 'b', 'c']) t.same(given.get(id), { full: true }, `${id} in full`)
})

t.test('the budget goes to the walks never walked in full, then to the one walked in full longest ago', async (t) => {
  // each costs 10 pages past its first two and last two; the budget holds two of them
  const all = forms(['old', 14], ['never', 14], ['recent', 14])
  const given = allot(all, { old: 1_000, recent: 9_000 }, 0, 20)
  t.same(given.get('never'), { full: true }, 'never walked in full: first')
  t.same(given.get('old'), { full: true }, 'walked in full longest ago: next')
  t.match(given.get('recent'), { full: false, head: HEAD, tail: TAIL }, 'walked in full lately: in part, nothing left to lengthen it')
  t.match(given.get('recent'), { why: /went to walks due before it/ })
})

t.test('without a ledger the night turns the order, so every walk comes round', async (t) => {
  const all = forms(['a', 14], ['b', 14], ['c', 14])
  const full = (night: number) => [...allot(all, {}, night, 10)].filter(([, a]) => a.full).map(([id]) => id)
  t.same([full(0), full(1), full(2)], [['a'], ['b'], ['c']], 'one a night, each in turn')
})

t.test('what the walks in full leave lengthens the others’ first and last pages', async (t) => {
  const given = allot(forms(['small', 8], ['large', 100]), {}, 0, 12)
  t.same(given.get('small'), { full: true }, 'the small one in full (4 pages past its ends)')
  const large = given.get('large')
  t.match(large, { full: false }, 'the large one in part')
  if (large && !large.full) {
    t.equal(large.head + large.tail, HEAD + TAIL + 8, 'with the 8 pages left, split between its first and last pages')
    t.match(large.why, /more pages than one run's walk budget/, 'and says it is larger than a run can walk')
  }
  t.equal(WALK_BUDGET, 40, 'the default budget: 40 pages a run past the ends of each walk')
})

t.test('a walk whose first page gives no total and size is read to page 2', async (t) => {
  t.match(allot(forms(['unknown', undefined]), {}, 0).get('unknown'), { full: false, head: HEAD, tail: 0, why: /no total and page size/ })
})

t.test('the pages read are named as runs', async (t) => {
  const walk = (...numbers: number[]) => ({ pages: numbers.map((number) => ({ number })) })
  t.equal(pagesRead(walk(1)), '1')
  t.equal(pagesRead(walk(1, 2, 3)), '1-3')
  t.equal(pagesRead(walk(1, 2, 59, 60)), '1-2, 59-60')
})
