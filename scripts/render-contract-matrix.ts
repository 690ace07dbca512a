// Rewrites the request-matrix table of docs/contract.md from src/contract/matrix.ts (run: npx tsx scripts/render-contract-matrix.ts);
// test/contract/matrix.test.ts fails until the docs show what renderMatrix() renders.
import { readFileSync, writeFileSync } from 'node:fs'
import { renderMatrix } from '../src/contract/matrix.js'

const p = 'docs/contract.md'
let s = readFileSync(p, 'utf8')
const start = '<!-- matrix: generated from src/contract/matrix.ts (renderMatrix); test/contract/matrix.test.ts keeps it in step; npx tsx scripts/render-contract-matrix.ts rewrites it -->'
const end = '<!-- matrix: end -->'
const block = `${start}\n\n${renderMatrix()}${end}`
if (!s.includes(start)) throw new Error(`${p} has no place for the matrix: add a line holding ${start} and one holding ${end}`)
s = s.replace(new RegExp(`${start.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}[\\s\\S]*?${end}`), () => block)
writeFileSync(p, s)
