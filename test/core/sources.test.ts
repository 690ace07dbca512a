// Determinism has two doors: data comes from the seeded faker (src/core/random.ts) and
// time from the injectable clock (src/core/clock.ts). This test reads every source file
// and fails on a reach for the machine's randomness or time anywhere else, so a seed
// keeps giving the same board and a virtual clock keeps meaning something.
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import t from 'tap'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const DOORS = new Set(['src/core/random.ts', 'src/core/clock.ts'])
const FORBIDDEN: ReadonlyArray<readonly [RegExp, string]> = [
  [/\bMath\.random\s*\(/, 'Math.random()'],
  [/\bDate\.now\s*\(/, 'Date.now()'],
  [/\bnew\s+Date\s*\(\s*\)/, 'new Date()'],
  [/\bcrypto\.(randomUUID|randomInt|getRandomValues)\s*\(|\brandom(UUID|Int|Bytes)\s*\(/, "node:crypto's randomness"],
]

function sources(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`
    if (entry.isDirectory()) return sources(path)
    return entry.name.endsWith('.ts') ? [path] : []
  })
}

/** The code of a file without its comments, line for line, so a comment may name what it avoids. */
function code(text: string): string[] {
  return text
    .replace(/\/\*[\s\S]*?\*\//g, (block) => block.replace(/[^\n]/g, ' '))
    .split('\n')
    .map((line) => line.replace(/(^|[^:'"`])\/\/.*$/, '$1'))
}

const files = [...sources('src'), ...sources('schemas')]

t.test('finds the source files it is meant to read', async (t) => {
  t.ok(files.length > 50, `${files.length} files`)
  for (const door of DOORS) t.ok(files.includes(door), `${door} exists`)
})

t.test('no source file outside random.ts and clock.ts reads the machine clock or its randomness', async (t) => {
  const found: string[] = []
  for (const file of files.filter((f) => !DOORS.has(f))) {
    code(readFileSync(join(ROOT, file), 'utf8')).forEach((line, i) => {
      for (const [pattern, name] of FORBIDDEN) if (pattern.test(line)) found.push(`${relative('.', file)}:${i + 1} uses ${name}`)
    })
  }
  t.same(found, [], found.join('\n'))
})

t.test('the scan catches a call it must refuse', async (t) => {
  const sample = ['const a = 1', 'const roll = Math.random() // a roll', '/* Date.now() */ const b = 2', 'const when = new Date()']
  const hits = code(sample.join('\n')).flatMap((line, i) => FORBIDDEN.filter(([p]) => p.test(line)).map(([, name]) => `${i + 1}:${name}`))
  t.same(hits, ['2:Math.random()', '4:new Date()'])
})
