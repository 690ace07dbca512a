// The verdict's docs in step with its catalogue: docs/verdict.md holds the rule table
// generated from src/watch/verdict/client-rules.ts, docs/behaviour.md reads each rule, and the
// README and docs/api.md describe the routes.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import t from 'tap'
import { ruleTable, TABLE_END, TABLE_START, withRuleTable } from '../../../src/watch/verdict/docs.js'
import { RULES } from '../../../src/watch/verdict/client-rules.js'
import { ROOT } from '../../helpers/cli.js'

const read = (path: string) => readFileSync(join(ROOT, path), 'utf8')

t.test('docs/verdict.md holds the rule table the catalogue generates (npx tsx src/watch/verdict/docs.ts writes it)', async (t) => {
  const page = read('docs/verdict.md')
  t.equal(withRuleTable(page), page)
  t.match(page, `${TABLE_START}\n${ruleTable()}\n${TABLE_END}`)
})

t.test('the table has one row per rule, by id, in the catalogue\'s order', async (t) => {
  const ids = [...ruleTable().matchAll(/^\| `([a-z-]+)` \|/gm)].map((m) => m[1])
  t.same(ids, RULES.map((rule) => rule.id))
})

t.test('every rule has a sentence, a spec line and what to do instead', async (t) => {
  for (const rule of RULES) {
    t.match(rule.sentence, /\.$/, `${rule.id} says its rule as a sentence`)
    t.ok(rule.spec.length > 10 && rule.instead.length > 10, `${rule.id} names its spec line and what to do instead`)
  }
})

t.test('docs/behaviour.md reads every rule in its verdict section', async (t) => {
  const section = read('docs/behaviour.md').split('## The verdict')[1] ?? ''
  for (const rule of RULES) t.match(section, `| \`${rule.id}\`:`, `${rule.id} has a row`)
})

t.test('the README and docs/api.md describe the verdict routes', async (t) => {
  const readme = read('README.md')
  const api = read('docs/api.md')
  for (const text of [readme, api]) {
    t.match(text, 'GET /__mock/verdict')
    t.match(text, 'POST /__mock/verdict/copy')
  }
  t.match(readme, 'docs/verdict.md')
})
