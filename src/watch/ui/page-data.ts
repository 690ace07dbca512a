// What the page of /__mock/ui reads, as types: the JSON its routes answer (routes.ts) and
// its script reads (browser/). Both sides are checked against this one file, so a field
// moved on one side fails the type check of the other. It imports nothing: the browser's
// type check (browser/tsconfig.json) reads it without the Node code's types.

/** The journal's fields a filter may name (?user=, ?method=, ?path=, ?status=). */
export const UI_FILTERS = ['user', 'method', 'path', 'status'] as const
export type UiFilter = (typeof UI_FILTERS)[number]

/** One journal entry as a window gives it: arrays, since 10,000 objects' keys would double the bytes. */
export type JournalRow = [
  id: number,
  ms: number,
  method: string,
  url: string,
  status: number,
  user: string,
  fault: string | null,
  retryAfter: number | null,
  nextPage: boolean | null,
]

/** GET /__mock/ui/journal: the entries after an id, oldest first; the ids of the oldest and newest held. */
export interface JournalWindow {
  first: number
  newest: number
  entries: JournalRow[]
}

/** The verdict as the page shows it: each rule with its sentence, each finding with the requests it names. */
export interface VerdictView {
  outcome: string
  rules: Array<{ id: string; sentence: string; outcome: string; findings: Array<{ message: string; requests: number[] }> }>
}
