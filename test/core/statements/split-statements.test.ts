// splitSpec cuts a Markdown spec into its statements mechanically: every table row, every
// sentence of a list item and of running text, each under its section path with its line;
// a table it cannot read is an error naming the line, never a statement skipped.
import t from 'tap'
import { SpecSyntaxError, sentencesOf, splitSpec } from '../../../src/core/statements/split-statements.js'

const SPEC = `# The API

Intro sentence one. Intro two.

## Resources

### Thing

| Field | Type |
|---|---|
| id | integer |
| name, \`a|b\` | string |

- first item. Its second sentence.
- second item
  continued here.

A sentence, e.g. with an abbreviation, goes on. A \`value. Inside\` stays whole.
Next line sentence: not shown.
`

t.test('rows, item sentences and running sentences come with their section path and line', async (t) => {
  const statements = splitSpec(SPEC)
  t.same(
    statements.map((s) => [s.line, s.form, s.section, s.words]),
    [
      [3, 'sentence', 'The API', 'Intro sentence one.'],
      [3, 'sentence', 'The API', 'Intro two.'],
      [11, 'row', 'Resources › Thing', '| id | integer |'],
      [12, 'row', 'Resources › Thing', '| name, `a|b` | string |'],
      [14, 'item', 'Resources › Thing', 'first item.'],
      [14, 'item', 'Resources › Thing', 'Its second sentence.'],
      [15, 'item', 'Resources › Thing', 'second item continued here.'],
      [18, 'sentence', 'Resources › Thing', 'A sentence, e.g. with an abbreviation, goes on.'],
      [18, 'sentence', 'Resources › Thing', 'A `value. Inside` stays whole.'],
      [19, 'sentence', 'Resources › Thing', 'Next line sentence: not shown.'],
    ],
  )
})

t.test('a heading of a higher level closes the subsections under the one before', async (t) => {
  const statements = splitSpec('# T\n\n## A\n\n### B\n\nIn B.\n\n## C\n\nIn C.\n')
  t.same(statements.map((s) => s.section), ['A › B', 'C'])
})

t.test('sentences end at a full stop, question or exclamation mark before space, not inside backticks or after i.e.', async (t) => {
  t.same(sentencesOf('One (see Two). Three, i.e. four? Five! `a. b` six.'), ['One (see Two).', 'Three, i.e. four?', 'Five!', '`a. b` six.'])
  t.same(sentencesOf('A version 1.5 stays. /api/v1. Next'), ['A version 1.5 stays.', '/api/v1.', 'Next'])
})

t.test('a table row with another number of cells than its header is an error naming the line', async (t) => {
  const bad = '## S\n\n| a | b |\n|---|---|\n| 1 | 2 |\n| 1 | 2 | 3 |\n'
  t.throws(() => splitSpec(bad), { message: /^spec line 6: a table row of 3 cells under a header of 2 \(line 3\)$/ })
  const error = (() => {
    try {
      splitSpec(bad)
    } catch (e) {
      return e
    }
  })()
  t.ok(error instanceof SpecSyntaxError && error.line === 6, 'a SpecSyntaxError carrying the line')
  t.throws(() => splitSpec('## S\n\n| a | b |\n| 1 | 2 |\n'), { message: /^spec line 3: a table row with no header and separator above it$/ })
  t.throws(() => splitSpec('## S\n\n| a | b |\n|---|\n'), { message: /^spec line 4: the separator has 1 cells, the header 2$/ })
})

t.test('what the splitter cannot read as statements is an error, not a skip', async (t) => {
  t.throws(() => splitSpec('## S\n\n```\ncode\n```\n'), { message: /^spec line 3: a code block/ })
  t.throws(() => splitSpec('## S\n\n| a |\n|---|\n| 1 |\ntext under\n'), { message: /^spec line 6: text right under a table/ })
})
