// Every failing check cites its sentence: the summary prints, on the lines after a FAIL,
// the spec's words the check rests on (a quote, or an RFC section with its title), and
// the JUnit <failure> holds them before the problems found; a check no sentence backs
// says it is an observation, a profile point's check that the spec leaves it open.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { XMLParser } from 'fast-xml-parser'
import t from 'tap'
import { junitXml } from '../../src/contract/junit.js'
import { checkLines } from '../../src/contract/report.js'
import { FREE_TEXT } from '../../src/contract/cases.js'
import { citationLines } from '../../src/contract/citations.js'
import { rulesOf } from '../../src/contract/rules.js'
import type { CheckResult } from '../../src/contract/suite.js'
import { board, changeJson, contract, dropHeader } from './helpers.js'

interface Failure {
  '@_message': string
  '#text'?: string
}
interface Junit {
  testsuites: { testsuite: Array<{ '@_name': string; testcase: Array<{ '@_name': string; failure?: Failure }> }> }
}

const parse = (xml: string) => new XMLParser({ ignoreAttributes: false, isArray: (name) => name === 'testsuite' || name === 'testcase' || name === 'property' }).parse(xml) as Junit

const failureOf = (xml: Junit, endpoint: string, name: string) =>
  xml.testsuites.testsuite.find((s) => s['@_name'] === endpoint)?.testcase.find((c) => c['@_name'] === name)?.failure

/** The lines of the summary that follow a check's FAIL line, up to the next check. */
function linesAfter(output: string, name: string): string[] {
  const lines = output.split('\n')
  const at = lines.indexOf(`  FAIL  ${name}`)
  if (at < 0) return []
  const next = lines.findIndex((line, i) => i > at && !line.startsWith('          '))
  return lines.slice(at + 1, next < 0 ? undefined : next)
}

const failed = (endpoint: string, name: string, failures: string[]): CheckResult => ({ endpoint, name, status: 'fail', skip: undefined, reason: undefined, ms: 1, failures, passes: [] })

t.test("a deployment listing months oldest first fails the order check, whose summary and JUnit failure quote the spec's sentence", async (t) => {
  const { url } = await board(t, changeJson(/^\/metrics\/list$/, (body) => {
    for (const metric of (body as { metrics: Array<{ aggregations: unknown[] }> }).metrics) metric.aggregations.reverse()
  }))
  const junit = join(t.testdir(), 'contract.xml')
  const run = await contract({ baseUrl: url, only: 'metrics', junit })
  const name = 'months are newest first within each metric'
  t.ok(run.failed().includes(`metrics/list: ${name}`), 'the order check fails')
  const after = linesAfter(run.output, name)
  t.equal(after[0], '          spec: "Aggregations are ordered newest month first."', 'the line after the FAIL quotes the sentence')
  t.match(after.slice(1).join('\n'), /^ {10}- Jobs created: month 2 /, 'then come the problems found')
  const failure = failureOf(parse(readFileSync(junit, 'utf8')), 'metrics/list', name)
  t.match(failure?.['#text'], /^spec: "Aggregations are ordered newest month first."\nJobs created: month 2 /, "the JUnit failure's text quotes it before the problems")
  const passing = run.output.split('\n').filter((line, i, lines) => line.startsWith('          spec:') && !/^ {2}FAIL |^ {10}spec:/.test(lines[i - 1] ?? ''))
  t.same(passing, [], 'no passing check prints words')
})

t.test("a download without Content-Disposition fails a check that cites the spec and the RFC's words it relies on", async (t) => {
  const { url } = await board(t, dropHeader('content-disposition', /^\/applications\/attachment\//))
  const junit = join(t.testdir(), 'contract.xml')
  const run = await contract({ baseUrl: url, only: 'applications', junit })
  const name = 'Content-Disposition is attachment with the listed filename'
  t.same(run.failed(), [`applications/attachment/{id}: ${name}`], 'only that check fails')
  const words = [
    'spec: "`Content-Disposition: attachment` with `filename` set to the original file name"',
    'spec: RFC 6266 §4.1 (Use of the Content-Disposition Header Field in HTTP): "filename-parm = "filename" "=" value | "filename*" "=" ext-value"',
    'spec: RFC 6266 §4.1 (Use of the Content-Disposition Header Field in HTTP): "Content-Disposition header field values with multiple instances of the same parameter name are invalid."',
  ]
  // the attachment the plan picks, then those read in turn (in-turn.ts), each naming its download
  const problems = linesAfter(run.output, name).slice(words.length)
  t.same(linesAfter(run.output, name).slice(0, words.length), words.map((line) => `          ${line}`), 'the words first')
  t.ok(problems.length > 1, `then a problem for each attachment read (${problems.length})`)
  t.match(problems, problems.map(() => /^ {10}- \/applications\/attachment\/[0-9]+: there is no Content-Disposition$/))
  const failure = failureOf(parse(readFileSync(junit, 'utf8')), 'applications/attachment/{id}', name)
  t.equal(failure?.['#text'], [...words, ...problems.map((line) => line.replace(/^ {10}- /, ''))].join('\n'))
  t.equal(failure?.['@_message'], problems[0]?.replace(/^ {10}- /, ''), 'the message stays the first problem')
})

t.test('a check no sentence backs says it is an observation; a profile point says the spec leaves it open', async (t) => {
  const sectors = checkLines(failed('candidates/list', 'every sector sector_disciplines names is among the sectors', ['candidate 1: …']))
  t.match(sectors[1], /^ {10}spec: no sentence backs this check, an observation: the spec gives sectors and sector_disciplines as two fields/)
  t.equal(sectors[2], '          - candidate 1: …')
  const profile = checkLines(failed('profile', 'pageSize is as the profile records it', ['profile: pageSize 20; deployment now answers 50']))
  t.match(profile[1], /^ {10}spec: not shown; the profile \(--profile\) pins/)
  const unknown = checkLines(failed('somewhere', 'a check no row names', ['wrong']))
  t.same(unknown, ['  FAIL  a check no row names', '          - wrong'], 'a check no row names prints only its problems')
  const xml = parse(junitXml([failed('metrics/list', 'each total is the sum of its months', ['Jobs created: total 5 but its months add up to 4'])], 'kit'))
  t.match(failureOf(xml, 'metrics/list', 'each total is the sum of its months')?.['#text'], /^spec: no sentence backs this check, an observation: .*\nJobs created: total 5/)
})

t.test('a check named by several rows cites the rows that name it most exactly', async (t) => {
  const close = 'job/close: closing the job answers status 200 with a message'
  t.same(citationLines(close), ['spec: "`status` 200, `message` text saying the job has been closed (unpublished)"'], "close's own answer, not the general success sentence")
  t.ok(rulesOf(close).every((rule) => rule.section === 'Endpoints'))
  const add = citationLines('job/add: a valid job answers 200 with the public page URL and the new id')
  for (const words of ['spec: "Job is created and gets an id; it is published or not according to `published`."', 'spec: "On success `status` 200, `message` string holding the public job page URL, `id` integer."']) t.ok(add.includes(words), `rows naming it outright are cited: ${words}`)
  t.ok(add.includes('spec: "Either the sector alone or `<Sector>/<Sub_sector>` is accepted, and the service splits it."'), 'the forms a valid add takes are cited too')
  // (a list's schema checks are each named outright by its resource's row: test/contract/engine found them citing no row of the table)
  const link = citationLines('marketing/list: next_page of the first page is an absolute URL on the same origin carrying page')
  t.ok(link.length >= 3 && link.includes('spec: "The version is carried in the path prefix /api/v1."') && link.some((line) => line.includes('`next_page`')), 'a check only families of checks name cites each family')
  const schema = citationLines('marketing/list: every other answer of the list fetched fits the schema too')
  t.ok(schema.includes('spec: "action | string; `Revoked` appears"'), "every list's schema checks cite its resource's table")
})

t.test("a failing schema check cites the table row of the field that failed, not every row of its resource's table", async (t) => {
  const { url } = await board(t, changeJson(/^\/candidates\/list$/, (body) => {
    const first = (body as { data: Array<Record<string, unknown>> }).data[0] as Record<string, unknown>
    first.created_at = `${String(first.created_at).replace(' ', 'T')}Z`
  }))
  const junit = join(t.testdir(), 'contract.xml')
  const run = await contract({ baseUrl: url, only: 'candidates', junit })
  const name = 'the first page fits the candidate list schema'
  t.ok(run.failed().includes(`candidates/list: ${name}`), 'the schema check fails')
  const after = linesAfter(run.output, name)
  const cited = after.filter((line) => line.startsWith('          spec: '))
  const whole = citationLines(`candidates/list: ${name}`)
  t.same(cited, ['          spec: "last_login, created_at, updated_at | string timestamp"'], 'the row naming created_at is cited, alone')
  t.match(after[1], /^ {10}also behind the check: 2[0-9] more of the spec's words \(the HTML report and the JUnit file list them\)$/, 'the rest of the citation is counted after it')
  t.ok(cited.every((line) => whole.includes(line.trim())), 'each a line of its whole citation')
  const failure = failureOf(parse(readFileSync(junit, 'utf8')), 'candidates/list', name)
  const text = failure?.['#text'] ?? ''
  t.match(text, /^spec: "last_login, created_at, updated_at \| string timestamp"\n/, 'the JUnit failure cites the row first')
  t.ok(text.indexOf('also: "id | integer"') > text.indexOf('last_login'), 'the other rows follow it, each an also: line')
  t.equal(text.split('\n').filter((line) => /^(spec|also): /.test(line)).length, whole.length, 'the whole citation is there')
})

/** A check's words as citationLines gives them for its findings: the `spec:` ones first. */
const firstWords = (check: string, failure: string) => citationLines(check, undefined, [failure]).filter((line) => line.startsWith('spec: '))

t.test('the words a finding contradicts come first, derived from the finding: the field\'s row, the envelope, the paging sentence, the RFC section', async (t) => {
  t.same(firstWords('candidates/details/{id}: the detail of a listed candidate fits the schema', 'the answer: The hot (field data[0].hot) is invalid: it must be an integer, not "yes".'), ['spec: "hot, featured | integer (1 or 0)"'], 'a hot of "yes": the row of hot, not the eight statements behind the schema')
  t.same(firstWords('candidates/list: the first page fits the candidate list schema', 'the first page: The field total is invalid: it must be an integer, not "31".'), ['spec: "Every JSON response carries `status` (integer). List and detail responses also carry `total` (integer) and `data` (array)."'], 'a total as text: the envelope sentence, which rows naming the list schema only in a family of checks give')
  t.same(firstWords('candidates/list: the first page fits the candidate list schema', 'the first page: The id (field data[0].applications[0].job.id) is invalid: it must be an integer, not "x".'), ['spec: "Candidate application entry: `job` object (`id` integer, `title` string, `reference` string, `location` string); `href` string URL of applications/details/{id}; `application_date` string timestamp."'], "a nested entry's field: the entry's sentence, not the candidate's id")
  t.same(firstWords('candidates/list: the first page fits the candidate list schema', 'the first page: The id (field data[0].id) is invalid: it must be an integer, not "x".'), ['spec: "id | integer"'], "the candidate's own id: its row")
  t.match(firstWords('candidates/list: the first page fits the candidate list schema', 'the first page: The filesize (field data[0].timesheets[0].filesize) is invalid.')[0], /^spec: "File entry: .*`filesize` string of bytes/, "a file's size: the File entry")
  t.match(firstWords('timesheets/list: next_page of the first page is an absolute URL on the same origin carrying page', 'next_page "/api/v1/timesheets/list?page=2" is not an absolute URL')[0], /^spec: "Where a response carries `next_page`/, 'a link: the paging sentence')
  t.match(firstWords('every answer: each 401 carries a WWW-Authenticate challenge for Basic with a quoted realm', "GET /api/v1/metrics/list: the Basic challenge \"Basic\" names no realm (RFC 7617 §2: the authentication parameter 'realm' is REQUIRED)"), [/^spec: RFC 7617 §2 .*'realm' is REQUIRED/], 'the RFC section the finding names')
  const all = citationLines('candidates/list: the first page fits the candidate list schema', undefined, ['nothing the words name'])
  t.ok(all.length > 20 && all.every((line) => line.startsWith('spec: ')), 'nothing derived: the whole citation, in its order')
})

t.test("a field the check's rows do not quote: its row in the table they quote, or the row of the check's endpoint, where it reaches further", async (t) => {
  t.same(firstWords('candidates/list: every other answer of the list fetched fits the schema too', 'page 3 of the walk without filters (/candidates/list?page=3): The available from year (field data[2].available_from_year) is invalid: it must be a string, not null.'), ['spec: "| available_from_year, available_from_day, available_from_month | string (year, day number, month name) |"'], "a later page's available_from_year: its row of the Candidate table, not the envelope's data")
  t.same(firstWords('candidates/details/{id}: the detail of a listed candidate fits the schema', 'the detail: The sector disciplines (field data[0].sector_disciplines) is missing; it is required.'), [`spec: "| sector_disciplines | array of string; a discipline is written \`<Sector>::<Discipline>\`, a sector without discipline is written alone |"`], "a detail's sector_disciplines: its row")
  t.match(firstWords('timesheets/list: the answer with no records (since after the newest) fits the schema, data an empty array and total 0', 'the answer with since 2026-11-23 09:30:00: The prev page (field prev_page) is missing; it is required.'), [/^spec: "\| GET \| \/timesheets\/list \| .*`prev_page` \(URL string, or false when there is none\)/], "an empty answer's prev_page: the row of /timesheets/list, not candidates' since")
  t.match(firstWords(`job/add: a job with each free-text field holding ${JSON.stringify(FREE_TEXT)} is accepted with status 200`, 'the answer: The field id is invalid: it must be an integer, not null.'), [/^spec: "(\| POST \| \/job\/add \| .*)?On success `status` 200, `message` string holding the public job page URL, `id` integer/], "an add's id: the row of /job/add (the words of it that rules.ts quotes for every add), not the free-text rows")
  t.same(firstWords('metrics/list: months are newest first within each metric', 'Jobs created: month 2 ({"year":"2024","month":"December","total":0}) is not older than the one before'), ['spec: "Aggregations are ordered newest month first."'], "a label the finding quotes, of a statement the check's rows do not quote, is no finding's: the order sentence")
})

t.test("a detail whose hot is \"yes\" fails citing the row of hot first, in the summary and the JUnit file", async (t) => {
  const { url } = await board(t, changeJson(/^\/candidates\/details\/[0-9]+$/, (body) => {
    for (const c of (body as { data: Array<Record<string, unknown>> }).data) c.hot = 'yes'
  }))
  const junit = join(t.testdir(), 'contract.xml')
  const run = await contract({ baseUrl: url, only: 'candidates', junit })
  const name = 'the detail of a listed candidate fits the schema'
  t.ok(run.failed().includes(`candidates/details/{id}: ${name}`), 'the detail schema check fails')
  t.same(linesAfter(run.output, name).slice(0, 1), ['          spec: "hot, featured | integer (1 or 0)"'], 'the summary names the row of hot first')
  t.match(failureOf(parse(readFileSync(junit, 'utf8')), 'candidates/details/{id}', name)?.['#text'], /^spec: "hot, featured \| integer \(1 or 0\)"\nalso: /, 'the JUnit failure too, the rest after it')
})
