// The shared-board goal table (bench/boards.ts, issue 36): each figure beside its goal, a
// column per Node, a missing Node said so. Made-up figures only: no test here measures or
// asserts a timing.
import t from 'tap'
import { BOARD_GOALS, type BoardsFigures, boardsTable } from '../../bench/boards.js'
import type { NodeColumn } from '../../bench/goal-tables.js'
import { judgeRow, misses } from '../../bench/goals.js'

const columns: NodeColumn[] = [
  { label: 'Node 24', major: 24, version: 'v24.1.0' },
  { label: 'Node 20', major: 20, missing: 'not on this machine' },
]

const figures: Record<string, BoardsFigures> = {
  'v24.1.0': {
    large: { oneHeapBytes: 40 * 2 ** 20, manyHeapBytes: 42 * 2 ** 20, heapRatio: 1.05, spreadMs: 12 },
    reset: { default: { inProcessMs: 0.3, httpMs: 1.2 }, large: { inProcessMs: 0.4, httpMs: 4 } },
    later: { laterMs: 20, laterCpuMs: 15, boardMs: 2, bareMs: 9, bareCpuMs: 8, routes: 60 },
  },
}

t.test('each shared-board figure is judged against its goal, and a miss names its row', async (t) => {
  const table = boardsTable(columns, figures, 3)
  const rows = table.rows.map(judgeRow)
  t.equal(rows.length, 9)
  t.equal(rows[0]?.nodes['Node 24']?.verdict, '1.05× vs ≤ 1.2×: met')
  t.equal(rows[0]?.nodes['Node 24']?.shown, '42.0 ÷ 40.0 MiB = 1.05×')
  t.equal(rows[5]?.nodes['Node 24']?.verdict, '4.0 ms vs ≤ 3 ms: missed by 1 ms (33 %)')
  t.equal(rows[6]?.nodes['Node 24']?.shown, '20.00 ms (CPU 15.00 ms)', "a later fake's CPU time is beside its wall clock")
  t.equal(rows[7]?.nodes['Node 24']?.goal, undefined, "the board's part has no goal")
  t.equal(rows[8]?.nodes['Node 24']?.goal, undefined, 'Fastify alone with the same routes has no goal: it is the floor beside it')
  t.equal(rows[8]?.nodes['Node 24']?.shown, '9.00 ms (CPU 8.00 ms)')
  t.same(
    misses([table]).map((m) => m.split(':')[0]),
    ['boards, Node 24, reset of a changed board, over HTTP', 'boards, Node 24, a later in-process fake of the same scenario and seed → first answer'],
  )
  t.match(table.notes?.join(' '), /Node 20: not measured, not on this machine/)
  t.equal(BOARD_GOALS.resetMs.limit, 1)
})

t.test('without figures the table says it was not measured', async (t) => {
  t.same(boardsTable(columns, undefined, 0).notes, ['not measured (--startup-runs 0)'])
})
