// The spec's statements, cut mechanically from its Markdown (issue 34 item 1): every table
// row (not the header nor the separator), every sentence of a list item (an item may hold
// several rules: `job_industry: …. A slash separates …`), every sentence of running text,
// each under its section path and with its line. The statement index (statement-index.ts) holds
// an entry per statement; its test and docs/contract.md's index read the spec through this
// one function, so both see the same statements. Pure: text in, statements out. A table the
// splitter cannot read (a row whose cells do not match its header) or a code block throws an
// error naming the line: a statement is never skipped silently.

export type StatementForm = 'row' | 'item' | 'sentence'

export interface Statement {
  /** The headings above it, from the second level down, joined by ' › ' (the title's for text before any). */
  section: string
  /** Its words: a row as `| cell | cell |` (cells as written); a sentence of an item (its marker dropped) or of running text as written, lines joined by a space. */
  words: string
  /** The line (1-based) it starts on. */
  line: number
  /** A table row, a sentence of a list item, or a sentence of running text. */
  form: StatementForm
}

export class SpecSyntaxError extends Error {
  constructor(
    readonly line: number,
    what: string,
  ) {
    super(`spec line ${line}: ${what}`)
  }
}

/** Words a sentence never ends after, though a full stop follows them. */
const ABBREVIATIONS = ['e.g.', 'i.e.', 'etc.', 'cf.', 'vs.', 'approx.', 'no.']

/** The cells of a table line: split on `|` outside backticks, the outer pipes dropped, each trimmed. */
function cellsOf(line: string): string[] {
  const cells: string[] = []
  let cell = ''
  let code = false
  for (let i = 0; i < line.length; i++) {
    const c = line[i] as string
    if (c === '\\' && line[i + 1] === '|') {
      cell += '\\|'
      i++
    } else if (c === '`') {
      code = !code
      cell += c
    } else if (c === '|' && !code) {
      cells.push(cell)
      cell = ''
    } else cell += c
  }
  cells.push(cell)
  const trimmed = cells.map((x) => x.trim())
  // `| a | b |` splits into '', a, b, '': the outer pipes hold no cell
  if (trimmed[0] === '') trimmed.shift()
  if (trimmed.at(-1) === '' && /\|\s*$/.test(line)) trimmed.pop()
  return trimmed
}

const SEPARATOR = /^\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?$/

/** Where a sentence ends in running text: after . ! or ? (and a closing bracket or quote) before space or the end, outside backticks, not after an abbreviation. */
export function sentencesOf(text: string): string[] {
  return sentenceSpans(text).map((s) => s.words)
}

/** The sentences of a text with the offset each starts at. */
function sentenceSpans(text: string): Array<{ words: string; at: number }> {
  const out: Array<{ words: string; at: number }> = []
  const push = (from: number, to: number) => {
    const piece = text.slice(from, to)
    const words = piece.trim()
    if (words) out.push({ words, at: from + (piece.length - piece.trimStart().length) })
  }
  let start = 0
  let code = false
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string
    if (c === '`') code = !code
    if (code || !/[.!?]/.test(c)) continue
    let end = i + 1
    while (end < text.length && /[)"'”’]/.test(text[end] as string)) end++
    if (end < text.length && !/\s/.test(text[end] as string)) continue
    const before = text.slice(start, i + 1).toLowerCase()
    if (ABBREVIATIONS.some((a) => before.endsWith(` ${a}`) || before === a || before.endsWith(`(${a}`))) continue
    push(start, end)
    start = end
  }
  push(start, text.length)
  return out
}

/** The statements of a Markdown spec, in the order they stand. */
export function splitSpec(markdown: string): Statement[] {
  const lines = markdown.split(/\r?\n/)
  const statements: Statement[] = []
  const headings: string[] = []
  let title = ''
  const section = () => (headings.length > 0 ? headings.filter(Boolean).join(' › ') : title)
  let paragraph: { text: string[]; line: number } | undefined
  let item: { text: string[]; line: number } | undefined
  let table: { width: number; line: number } | undefined

  /** Each sentence of a block of lines, with the line it starts on. */
  const push = (block: { text: string[]; line: number } | undefined, form: StatementForm) => {
    if (block === undefined) return
    const starts: number[] = []
    let offset = 0
    for (const part of block.text) {
      starts.push(offset)
      offset += part.length + 1
    }
    for (const { words, at } of sentenceSpans(block.text.join(' '))) {
      statements.push({ section: section(), words, line: block.line + starts.findLastIndex((s) => s <= at), form })
    }
  }
  const flushParagraph = () => {
    push(paragraph, 'sentence')
    paragraph = undefined
  }
  const flushItem = () => {
    push(item, 'item')
    item = undefined
  }
  const flush = () => {
    flushParagraph()
    flushItem()
  }

  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i] as string
    const text = raw.trim()
    const line = i + 1
    if (text.startsWith('```') || text.startsWith('~~~')) throw new SpecSyntaxError(line, 'a code block, which the splitter cannot read as statements')
    const heading = /^(#{1,6})\s+(.*)$/.exec(text)
    if (heading) {
      flush()
      table = undefined
      const level = (heading[1] as string).length
      if (level === 1) title = heading[2] as string
      else {
        headings.length = level - 2
        headings[level - 2] = (heading[2] as string).trim()
      }
      continue
    }
    if (text === '') {
      flush()
      table = undefined
      continue
    }
    if (text.startsWith('|')) {
      flush()
      const cells = cellsOf(text)
      if (table === undefined) {
        // a header, which a separator must follow
        const next = (lines[i + 1] ?? '').trim()
        if (!SEPARATOR.test(next)) throw new SpecSyntaxError(line, 'a table row with no header and separator above it')
        if (cellsOf(next).length !== cells.length) throw new SpecSyntaxError(line + 1, `the separator has ${cellsOf(next).length} cells, the header ${cells.length}`)
        table = { width: cells.length, line }
        i++
        continue
      }
      if (cells.length !== table.width) throw new SpecSyntaxError(line, `a table row of ${cells.length} cells under a header of ${table.width} (line ${table.line})`)
      statements.push({ section: section(), words: `| ${cells.join(' | ')} |`, line, form: 'row' })
      continue
    }
    if (table !== undefined) throw new SpecSyntaxError(line, 'text right under a table, with no blank line between')
    const marker = /^(?:[-*+]|[0-9]+[.)])\s+(.*)$/.exec(text)
    if (marker) {
      flush()
      item = { text: [(marker[1] as string).trim()], line }
      continue
    }
    if (item) {
      // a continuation line of the item
      item.text.push(text)
      continue
    }
    if (paragraph) paragraph.text.push(text)
    else paragraph = { text: [text], line }
  }
  flush()
  return statements
}
