// The figures issue 30 sets goals for, beside their goals: one table per group of figures
// (start-up, accounts, throughput, the verdict's cost), a column per Node, the goal, and
// whether each Node met it or by how much it missed. Pure formatting and arithmetic: the
// bench reports, it never fails on a figure (bench/README.md, Goals).

/** How a figure is written: a ratio (1.43×), milliseconds, or a share (0.1 is 10 %). */
export type Unit = 'ratio' | 'ms' | 'share'

/** A figure's goal: at most or at least `limit`, in the figure's unit. */
export interface Goal {
  at: 'most' | 'least'
  limit: number
  unit: Unit
}

export const atMost = (limit: number, unit: Unit): Goal => ({ at: 'most', limit, unit })
export const atLeast = (limit: number, unit: Unit): Goal => ({ at: 'least', limit, unit })

/** A number without trailing zeros: 1.1, 60, 0.9. */
const plain = (n: number) => String(Number(n.toPrecision(6)))

export function formatValue(value: number, unit: Unit): string {
  if (!Number.isFinite(value)) return '–'
  if (unit === 'ratio') return `${value.toFixed(2)}×`
  if (unit === 'ms') return `${value < 10 ? value.toFixed(1) : value.toFixed(0)} ms`
  return `${(value * 100).toFixed(1)} %`
}

/** "≤ 1.1×", "≥ 0.9×", "≤ 60 ms", "≤ 10 %". */
export function describeGoal(goal: Goal): string {
  const sign = goal.at === 'most' ? '≤' : '≥'
  if (goal.unit === 'ratio') return `${sign} ${plain(goal.limit)}×`
  if (goal.unit === 'ms') return `${sign} ${plain(goal.limit)} ms`
  return `${sign} ${plain(goal.limit * 100)} %`
}

export interface Judgement {
  met: boolean
  /**
   * How far the figure is from its goal, as a share of the goal (0.3: 30 % over a
   * ceiling, or 30 % short of a floor); for a share (a cost in %), in points of it.
   * 0 when met.
   */
  by: number
  /** "met", "missed by 30 %", "missed by 91 ms (152 %)", "missed by 5.0 points"; "not measured" for a missing figure. */
  text: string
}

export function judge(value: number, goal: Goal): Judgement {
  if (!Number.isFinite(value)) return { met: false, by: Number.NaN, text: 'not measured' }
  const met = goal.at === 'most' ? value <= goal.limit : value >= goal.limit
  if (met) return { met, by: 0, text: 'met' }
  if (goal.unit === 'share') {
    const points = Math.abs(value - goal.limit)
    return { met, by: points, text: `missed by ${(points * 100).toFixed(1)} points` }
  }
  // over a ceiling: how much more than the goal; under a floor: how much of the goal is missing
  const by = goal.at === 'most' ? value / goal.limit - 1 : 1 - value / goal.limit
  const percent = `${(by * 100).toFixed(0)} %`
  return { met, by, text: goal.unit === 'ms' ? `missed by ${Math.abs(value - goal.limit).toFixed(0)} ms (${percent})` : `missed by ${percent}` }
}

/** One Node's figure in a row: its value, how it is shown when more than the value says, and its goal on that Node (none: printed beside, not judged). */
export interface Cell {
  value: number
  unit: Unit
  shown?: string | undefined
  goal?: Goal | undefined
}

export interface GoalRow {
  figure: string
  /** By column (a Node's label); a column without a cell was not measured on that Node. */
  cells: Record<string, Cell | undefined>
}

export interface GoalTable {
  /** The group's short name, for the list of misses ("start-up"). */
  group: string
  title: string
  /** The Nodes' labels, "Node 24" …, in order. */
  columns: string[]
  rows: GoalRow[]
  /** Lines printed under the table: what was left out and why, how a figure is taken. */
  notes?: string[] | undefined
}

/** A row as the JSON report keeps it: every Node's value, goal and judgement. */
export interface JudgedRow {
  figure: string
  nodes: Record<string, { value: number; shown: string; goal?: string; met?: boolean; by?: number; verdict?: string }>
}

export function judgeRow(row: GoalRow): JudgedRow {
  const nodes: JudgedRow['nodes'] = {}
  for (const [column, cell] of Object.entries(row.cells)) {
    if (cell === undefined) continue
    const shown = cell.shown ?? formatValue(cell.value, cell.unit)
    if (cell.goal === undefined) {
      nodes[column] = { value: cell.value, shown }
      continue
    }
    const { met, by, text } = judge(cell.value, cell.goal)
    nodes[column] = { value: cell.value, shown, goal: describeGoal(cell.goal), met, by, verdict: `${formatValue(cell.value, cell.unit)} vs ${describeGoal(cell.goal)}: ${text}` }
  }
  return { figure: row.figure, nodes }
}

/** The goal column: one goal, or the first with the others named by Node ("≤ 1.1× (Node 20: ≤ 1.3×)"); "–" when none. */
export function goalText(row: GoalRow, columns: string[]): string {
  const goals = columns.flatMap((column) => {
    const goal = row.cells[column]?.goal
    return goal ? [{ column, text: describeGoal(goal) }] : []
  })
  const first = goals[0]
  if (first === undefined) return '–'
  const others = goals.filter((g) => g.text !== first.text)
  // a Node without a figure (missing, or not measured there) is no exception to name
  const measured = columns.filter((column) => row.cells[column] !== undefined)
  if (others.length === 0) return goals.length === measured.length ? first.text : `${first.text} (${goals.map((g) => g.column).join(', ')})`
  return `${first.text} (${others.map((g) => `${g.column}: ${g.text}`).join(', ')})`
}

/** The verdict column: "met", "missed by 30 %", or per Node when several are judged ("Node 24 met, Node 22 missed by 30 %"). */
export function verdictText(row: GoalRow, columns: string[]): string {
  const judged = columns.flatMap((column) => {
    const cell = row.cells[column]
    return cell?.goal ? [{ column, text: judge(cell.value, cell.goal).text }] : []
  })
  if (judged.length === 0) return 'no goal'
  if (judged.length === 1 || judged.every((j) => j.text === judged[0]?.text)) {
    const text = judged[0]?.text ?? ''
    const measured = columns.filter((column) => row.cells[column] !== undefined)
    return judged.length === 1 || judged.length === measured.length ? text : `${text} (${judged.map((j) => j.column).join(', ')})`
  }
  return judged.map((j) => `${j.column} ${j.text}`).join(', ')
}

/** The table as text: the figure, each Node's value, the goal, met or missed by how much. */
export function renderGoalTable(table: GoalTable): string {
  const notes = (table.notes ?? []).map((n) => `  ${n}`)
  if (table.rows.length === 0) return [table.title, ...notes].join('\n')
  const header = ['figure', ...table.columns, 'goal', 'met / missed by']
  const cells = table.rows.map((row) => [
    row.figure,
    ...table.columns.map((column) => {
      const cell = row.cells[column]
      return cell === undefined ? '–' : (cell.shown ?? formatValue(cell.value, cell.unit))
    }),
    goalText(row, table.columns),
    verdictText(row, table.columns),
  ])
  const widths = header.map((title, i) => Math.max(title.length, ...cells.map((line) => (line[i] ?? '').length)))
  const last = header.length - 1
  const format = (line: string[]) =>
    line
      .map((cell, i) => (i === 0 || i === last ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0)))
      .join('  ')
      .trimEnd()
  return [table.title, format(header), widths.map((w) => '-'.repeat(w)).join('  '), ...cells.map(format), ...notes].join('\n')
}

/** Every judged cell that missed, as one line each ("start-up, Node 22, serve spawn → first 200: 1.43× vs ≤ 1.1×: missed by 30 %"). */
export function misses(tables: GoalTable[]): string[] {
  return tables.flatMap((table) =>
    table.rows.flatMap((row) =>
      Object.entries(judgeRow(row).nodes).flatMap(([column, node]) => (node.met === false ? [`${table.group}, ${column}, ${row.figure}: ${node.verdict}`] : [])),
    ),
  )
}
