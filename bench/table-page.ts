// Where `npm run bench -- --readme` writes its performance table: the section between two
// markers of docs/performance.md (the flag keeps its name from when the table was the
// README's). Only the text between the markers changes.
import { readFile, writeFile } from 'node:fs/promises'

export const TABLE_PAGE = new URL('../docs/performance.md', import.meta.url)
export const START = '<!-- bench:start -->'
export const END = '<!-- bench:end -->'

/** The page's text with the table between its markers in place of what was there. */
export function withTable(text: string, table: string): string {
  const from = text.indexOf(START)
  const to = text.indexOf(END)
  if (from < 0 || to < from) throw new Error(`docs/performance.md has no ${START} … ${END} section to rewrite.`)
  return `${text.slice(0, from + START.length)}\n${table}\n${text.slice(to)}`
}

/** Rewrites the table of docs/performance.md (or of `page`). */
export async function rewriteTable(table: string, page: URL = TABLE_PAGE): Promise<void> {
  await writeFile(page, withTable(await readFile(page, 'utf8'), table))
}
