// Rewrites the statement index of docs/contract.md from src/core/statements/statement-index.ts joined to
// src/contract/rules.ts (renderIndex), with its counts (run: npx tsx scripts/render-contract-index.ts);
// test/core/statements/statement-index.test.ts fails until the docs show what renderIndex() renders.
import { readFileSync, writeFileSync } from 'node:fs'
import { renderIndex } from '../src/contract/statements.js'

const p = 'docs/contract.md'
let s = readFileSync(p, 'utf8')
const start = '<!-- index: generated from src/core/statements/statement-index.ts and src/contract/rules.ts (renderIndex); test/core/statements/statement-index.test.ts keeps it in step; npx tsx scripts/render-contract-index.ts rewrites it -->'
const end = '<!-- index: end -->'
const block = `${start}\n\n${renderIndex()}\n${end}`
if (s.includes(start)) s = s.slice(0, s.indexOf(start)) + block + s.slice(s.indexOf(end) + end.length)
else {
  const intro = [
    '## The spec, statement by statement',
    '',
    'The spec (`job-board-api.md`) is cut mechanically into its statements (`src/core/statements/split-statements.ts`):',
    'every table row, every sentence of a list item, every sentence of running text, under its',
    'section. The index (`src/core/statements/statement-index.ts`) holds an entry for each, keyed by its exact',
    'words, saying what it is: a rule for the **server** (what an answer must hold, what request',
    'it must accept or refuse), a rule for **client**s (the fake\'s verdict rules, the kit\'s own',
    'behaviour), a **silence** ("not shown": the profile points that record a deployment\'s',
    'choice) or a **description** with nothing to check. A server rule\'s checks are those of the',
    'rows of the rule table below whose quotes stand in it: the rules hang off the index. A test',
    '(`test/core/statements/statement-index.test.ts`) fails when a statement has no entry or an entry quotes words',
    'the spec no longer has, so a changed spec is reviewed here first. For every checked server',
    'rule a deployment breaking exactly that rule, derived from the rule\'s kind, runs in front of',
    'the fake and of the second server (`test/contract/deviations.test.ts`): the kit must exit 1',
    'with the failing check citing the rule\'s words; for every silence a legal twin must exit 0.',
    '',
  ].join('\n')
  s = s.replace('## Every rule of the spec, accounted for', `${intro}\n${block}\n\n## Every rule of the spec, accounted for`)
}
writeFileSync(p, s)
