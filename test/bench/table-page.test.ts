// `npm run bench -- --readme` rewrites the performance table of docs/performance.md: the
// page has the one section it writes between, and only that section changes.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import t from 'tap'
import { END, rewriteTable, START, TABLE_PAGE, withTable } from '../../bench/table-page.js'

t.test('docs/performance.md holds one table section for the bench to rewrite', async (t) => {
  const page = await readFile(TABLE_PAGE, 'utf8')
  t.equal(page.split(START).length, 2, 'one start marker')
  t.equal(page.split(END).length, 2, 'one end marker')
  t.ok(page.indexOf(START) < page.indexOf(END), 'the start before the end')
  t.match(page.slice(page.indexOf(START), page.indexOf(END)), '| measure | figure |', 'with the table between them')
})

t.test('rewriting replaces what is between the markers and keeps the rest of the page', async (t) => {
  const text = `# Page\n\nbefore\n${START}\n| old | table |\n${END}\n\nafter\n`
  t.equal(withTable(text, '| new | table |'), `# Page\n\nbefore\n${START}\n| new | table |\n${END}\n\nafter\n`)
  t.equal(withTable(withTable(text, 'a'), 'a'), withTable(text, 'a'), 'twice is the same as once')
})

t.test('a page without the section is refused, naming the markers', async (t) => {
  t.throws(() => withTable('# Page\n', 'x'), { message: /has no <!-- bench:start --> … <!-- bench:end --> section/ })
  t.throws(() => withTable(`${END}\n${START}\n`, 'x'), { message: /section to rewrite/ }, 'the markers in the wrong order too')
})

t.test('rewriteTable writes the page in place', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'jobboard-kit-table-page-'))
  t.teardown(() => rm(dir, { recursive: true, force: true }))
  const file = join(dir, 'performance.md')
  await writeFile(file, `intro\n${START}\nold\n${END}\n`)
  await rewriteTable('new', pathToFileURL(file))
  t.equal(await readFile(file, 'utf8'), `intro\n${START}\nnew\n${END}\n`)
})
