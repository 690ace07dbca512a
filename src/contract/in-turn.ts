// Links a run follows in turn: every file a list's records name (a candidate's File
// entries, a timesheet's attachment, an applicant's attachment) and every application a
// candidate's entry links is told from another only by reading what it links — its
// download's filename and size, the application's vacancy. Each is a full request of its
// own under the rate limit ("different paths count separately"), so one run cannot read
// them all on a real board: each rotation takes a few a run, after the last one the run
// before took (the ledger's), else the night's share; across nights every link listed is
// read once a lap. Links the run asked anyway are read with them, at no cost.

/** How many links each rotation takes a run, beyond those the run asked anyway: 40 full requests in all. */
export const IN_TURN = {
  'candidate files': 15,
  'application entries': 10,
  'application attachments': 10,
  'timesheet attachments': 5,
} as const

export type InTurnName = keyof typeof IN_TURN

/** The last link each rotation took (the ledger's, by rotation), and the night of the run. */
export interface InTurnRotation {
  readonly last: Readonly<Record<string, string>>
  readonly night: number
}

/** One order of links for every run: by their text, numbers in it compared as numbers (`/resume/9` before `/resume/10`). */
const ORDER = new Intl.Collator('en', { numeric: true })

/**
 * The links a rotation takes this run, at most `budget`: the ones after the last the run
 * before took, in ORDER and round again from the first; with no such run remembered, the
 * night's share (lap after lap). All of them when they fit the budget.
 */
export function takeInTurn(links: readonly string[], budget: number, last: string | undefined, night: number): string[] {
  const order = [...new Set(links)].sort(ORDER.compare)
  if (order.length <= budget) return order
  const after = last === undefined ? -1 : order.findIndex((link) => ORDER.compare(link, last) > 0)
  const start = last === undefined ? (night % Math.ceil(order.length / budget)) * budget : Math.max(after, 0)
  return Array.from({ length: budget }, (_, k) => order[(start + k) % order.length] as string)
}
