// The rule table of docs/verdict.md, generated from the catalogue (client-rules.ts): the page
// holds it between two markers, and test/watch/verdict/docs.test.ts keeps it in step.
// `npx tsx src/watch/verdict/docs.ts` writes it into the page.
import { readFileSync, realpathSync, writeFileSync } from 'node:fs'
import { pathToFileURL } from 'node:url'
import { RULES } from './client-rules.js'

export const TABLE_START = '<!-- rules: generated from src/watch/verdict/client-rules.ts; do not edit by hand -->'
export const TABLE_END = '<!-- rules: end -->'

const cell = (text: string) => text.replaceAll('|', '\\|').replaceAll('\n', ' ')

/** The catalogue as a Markdown table: id, rule, spec, what to do instead, exercised by. */
export function ruleTable(): string {
  const rows = RULES.map((rule) => `| \`${rule.id}\` | ${cell(rule.sentence)} | ${cell(rule.spec)} | ${cell(rule.instead)} | ${cell(rule.exercisedBy)} |`)
  return ['| id | rule | spec | instead | exercised by |', '|---|---|---|---|---|', ...rows].join('\n')
}

/** The page with its table replaced by the generated one. */
export function withRuleTable(page: string): string {
  const start = page.indexOf(TABLE_START)
  const end = page.indexOf(TABLE_END)
  if (start < 0 || end < start) throw new Error(`the page has no ${TABLE_START} ... ${TABLE_END} markers`)
  return `${page.slice(0, start + TABLE_START.length)}\n${ruleTable()}\n${page.slice(end)}`
}

const invoked = process.argv[1] !== undefined && import.meta.url === pathToFileURL(realpathSync(process.argv[1])).href
if (invoked) {
  const path = new URL('../../../docs/verdict.md', import.meta.url)
  writeFileSync(path, withRuleTable(readFileSync(path, 'utf8')))
}
