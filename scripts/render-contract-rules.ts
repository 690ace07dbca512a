// Rewrites the rule table of docs/contract.md from src/contract/rules.ts (run: npx tsx scripts/render-contract-rules.ts);
// test/contract/rules.test.ts fails until the docs show what renderRules() renders.
import { readFileSync, writeFileSync } from 'node:fs'
import { renderRules } from '../src/contract/rules.js'
const p = 'docs/contract.md'
let s = readFileSync(p, 'utf8')
const start = '<!-- rules: generated from src/contract/rules.ts (renderRules); test/contract/rules.test.ts keeps it in step; npx tsx scripts/render-contract-rules.ts rewrites it -->'
const end = '<!-- rules: end -->'
const block = `${start}\n\n${renderRules()}\n${end}`
if (s.includes(start)) s = s.replace(new RegExp(`${start.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}[\\s\\S]*?${end}`), block)
else s = s.replace('## The spec decides what fails', `## Every rule of the spec, accounted for\n\nOne row per rule the spec states, section by section, in our own words, with the checks\n(\`endpoint: name\`, \`*\` for any text) that fail when a deployment breaks it, or why no\nblack-box check can: a "not shown" point is a profile point instead (docs/profile.md),\nchecked only with \`--profile\`. Where the spec gives a rule for clients, the row says what\nthe kit does about it, and names the fake's client-verdict rules that hold a client to it\n([docs/verdict.md](verdict.md)).\n\n${block}\n\n## The spec decides what fails`)
writeFileSync(p, s)
