// Every rule the spec states, section by section, in our own words, with the spec's own
// words it rests on (quotes of /work/shared/spec/job-board-api.md, or the RFC section a
// rule of HTTP or JSON comes from) and the checks that fail when a deployment breaks it —
// or why no black-box check can. A check may fail a run only for such words: a check no
// sentence backs is an observation (`kind: 'observation'`), which warns and never fails.
// The table in docs/contract.md is rendered from here (renderRules); the report, the
// summary and the JUnit file show the words of a failing check (citations.ts, the words the
// finding contradicts first). A test
// keeps it honest: every quote is in the spec, every row names checks that exist, and
// every check of a full run appears in some row. A check is named `endpoint: name` as the
// summary prints it; `*` stands for any text.

import { RFC_CITATION, RFCS, rfcStatements } from '../core/statements/rfc-statements.js'
import { STATEMENT_INDEX } from '../core/statements/statement-index.js'
import { ADD_FAILS, CASE_RULES, FIELD_WORDS, FREE_TEXT_FIELDS, FREE_TEXT_WORDS, REQUEST_CASES, SUCCESS } from './cases.js'

export { RFC_CITATION, RFCS }

export const SECTIONS = [
  'Resources and their fields',
  'States and transitions',
  'Endpoints',
  'Paging',
  'Downloads',
  'Authentication',
  'Errors',
  'Limits',
  'Versioning',
] as const
export type Section = (typeof SECTIONS)[number]

export interface Rule {
  section: Section
  /** The rule, in our words. */
  rule: string
  /**
   * The spec's own words the rule rests on: each an exact quote of the spec (whitespace
   * aside), or an RFC citation in the form RFC_CITATION gives (`RFC 9110 §10.2.3 "delay-seconds
   * value"`), which stands for the RFC statements of the index it names and prints their
   * words. Every rule has some; an observation has none.
   */
  spec?: readonly string[]
  /**
   * `observation`: a check the kit makes where no sentence of the spec (nor of an RFC it
   * relies on) says what it holds a deployment to; it may warn, never fail. `why` says why.
   */
  kind?: 'observation'
  /**
   * The subsection (a `###` heading of the spec, `Candidate`) its quotes stand under, where the
   * same words stand in several statements (`id | integer` in Candidate, Application and
   * Timesheet list entry): the statement index (src/contract/statements.ts) hangs the row
   * off the statement under this part only.
   */
  part?: string
  /** The checks that fail when it is broken (patterns of `endpoint: name`); for an observation, the checks it names. */
  checks: readonly string[]
  /** Why no check (or only some) can tell: not shown (a profile point), an effect not visible, a rule for clients; for an observation, why no sentence backs it. */
  why?: string
  /** The kit's own behaviour where the spec states a rule for clients. */
  client?: string
  /**
   * Where the spec states a rule for clients: the ids of the fake's client-verdict rules
   * that hold a client to it (src/watch/verdict/client-rules.ts; docs/verdict.md).
   */
  verdict?: readonly string[]
}

const SCHEMAS = ['*/list: the first page fits the * list schema', '*/list: every other answer of the list fetched fits the schema too', '*: the detail of a listed * fits the schema']
/** Every profile point's check: it holds a deployment to its own recorded choice, not to the spec (docs/profile.md). */
export const PROFILE = 'profile: * is as the profile records it'
const DOWNLOAD_OK = '*: the listed link answers 200*'
const NEXT_PAGE = 'Where a response carries `next_page`, it is a full URL of the next page of the same list, using the query parameter `page` (and `since` where given).'
const SINCE = 'optional query `since`, format `YYYY-MM-DD HH:MM` (a space is sent as +)'
const IN_STEP = "It is meant to keep a client's copy of the board's data in step with the board."
const ENVELOPE = 'Every JSON response carries `status` (integer). List and detail responses also carry `total` (integer) and `data` (array).'
const LIMIT_429 = 'Exceeding the limit yields 429 with `Retry-after` in seconds.'
/** What "string timestamp" in a table's row means: the rows of a type rest on the sentence that defines it. */
const TIMESTAMPS = 'Timestamps are strings of the form `YYYY-MM-DD HH:MM:SS` unless stated.'
/**
 * The rows of each resource table (cells as written, without the outer pipes) and the
 * sentences of its entries: each a statement of the spec's index (src/core/statements/statement-index.ts)
 * that the schema checks of that resource hold an answer to.
 */
const CANDIDATE_FIELDS = [
  'id | integer', 'identifier | string (opaque)', 'email, signup_email | string (e-mail)', 'name, telephone | string', 'address, city, county, country, postcode | string (may be empty)',
  'last_login, created_at, updated_at | string timestamp', 'marketing_opted_in | integer (1 or 0)', 'hot, featured | integer (1 or 0)', 'job_title, current_employer | string',
  'current_salary, preferred_salary | string (free range text)', 'seeking, notice_period, cover_letter, overview | string', 'work_eligible | string (numeric text of 0 or 1)',
  'preferred_job_titles, sectors, disciplines, employment_types, contract_types, expertise, locations | array of string', 'available_from | string `YYYY-MM-DD`', 'available_from_hr | string (human readable date)',
  'experience, specialisms, qualifications, skills | string (skills and experience are comma-separated lists)', 'latitude, longitude | string (may be empty)',
  'timesheets, resumes, documents | array of File entry', 'applications | array of Candidate application entry', 'consent | array of Consent entry',
  'File entry: `filename` string; `href` string URL of the download endpoint for that file; `filesize` string of bytes; `created_at` string timestamp.',
  'Candidate application entry: `job` object (`id` integer, `title` string, `reference` string, `location` string); `href` string URL of applications/details/{id}; `application_date` string timestamp.',
  'Consent entry: `type` string; `value` string (`Revoked` appears); `date` string timestamp; `ip_address` string.',
  TIMESTAMPS,
]
const APPLICATION_FIELDS = ['id | integer', 'created_at, updated_at | string timestamp', 'applicant | object: `name`, `email`, `telephone`, `cover_letter` (strings) and `attachment`', 'applicant.attachment | object: `href` (URL of applications/attachment/{id}), `filename` (string)', 'vacancy | object: `id` integer; `title`, `location`, `salary`, `reference` strings', TIMESTAMPS]
const TIMESHEET_FIELDS = ['id | integer', 'attachment | object: `href` (URL of the timesheet download), `filename` string, `filesize` integer bytes', 'created_at | string timestamp', 'candidate | object: `id` integer, `name` string, `email` string, `href` URL of candidates/details/{id}', TIMESTAMPS]
const MARKETING_FIELDS = ['candidate | object: `email` string, `id` integer, `ip_address` string', 'action | string; `Revoked` appears', 'created_at | string timestamp', TIMESTAMPS]
const METRIC_FIELDS = ['label | string', 'total | integer', 'aggregations | array of objects: `year` string, `month` string (month name), `total` integer']
/** The spec's list of values of each constrained job field, by field (the start of the list, where it is long). */
const VALUE_LISTS: Readonly<Record<string, string>> = {
  job_industry: 'job_industry: `Veterinary Surgeon`,',
  job_type: 'job_type: `Full time`, `Part time`, `Night time`.',
  contract_type: 'contract_type: `Permanent`, `Locum`, `Contract`, `Maternity cover`, `Temporary`.',
  salary_unit: 'salary_unit: `Per hour`, `Per year`, `Per week`, `Per month`.',
  salary_currency: 'salary_currencies (values for salary_currency): `GBP`.',
  job_telecommute: 'job_telecommute: `yes`, `no`.',
}
/** The endpoint rows of the downloads: each answers a listed file. */
const DOWNLOAD_ROWS = [
  "/candidates/timesheet/{id} | path `id` of a timesheet taken from a candidate's timesheets | file download",
  "/candidates/resume/{id} | path `id` of a resume taken from a candidate's resumes | file download",
  "/candidates/document/{id} | path `id` of a document taken from a candidate's documents | file download",
  '/applications/attachment/{id} | path `id` integer | file download',
  '/candidates/timesheets/download/{id} | path `id` integer | file download',
]
/** The checks every answer of a run passes as bytes (groups/wire-checks.ts). */
const WIRE = 'every answer'
const BASIC = 'All endpoints use HTTP Basic authentication with the form `<username>:<password>`.'

export const RULES: readonly Rule[] = [
  { section: 'Resources and their fields', rule: 'Every body is JSON, said by Content-Type application/json (parameters allowed)', spec: ['All bodies are JSON.', 'RFC 8259 §11 "media type for JSON"'], checks: [`${WIRE}: each JSON answer says Content-Type application/json`, ...SCHEMAS, 'job/fields: answers 200 with a JSON body whose status is 200', 'metrics/list: the answer fits the metrics schema'] },
  { section: 'Resources and their fields', rule: 'Every JSON body is UTF-8, with no byte-order mark', spec: ['All bodies are JSON.', 'RFC 8259 §8.1'], checks: [`${WIRE}: each JSON body is UTF-8 without a byte-order mark`] },
  { section: 'Resources and their fields', rule: 'Every JSON body is exactly one JSON value, with nothing after it but space, tab, LF or CR', spec: ['All bodies are JSON.', 'RFC 8259 §2 "serialized value"'], checks: [`${WIRE}: each JSON body is exactly one JSON value, with nothing after it but JSON whitespace`] },
  { section: 'Resources and their fields', rule: "A candidate's timesheets, resumes, documents, applications and consent are arrays, empty ones too", spec: ['array of File entry', 'array of Candidate application entry', 'array of Consent entry'], checks: ['candidates/list: the first page fits the candidate list schema', 'candidates/details/{id}: the detail of a listed candidate fits the schema'] },
  { section: 'Resources and their fields', rule: 'Timestamps are YYYY-MM-DD HH:MM:SS unless stated', spec: [TIMESTAMPS], checks: SCHEMAS },
  { section: 'Resources and their fields', part: 'Candidate', rule: "A candidate has the Candidate table's fields and types, with File, Candidate application and Consent entries", spec: ['Returned by candidates/list and candidates/details/{id}.', ...CANDIDATE_FIELDS], checks: ['candidates/list: the first page fits the candidate list schema', 'candidates/list: every other answer of the list fetched fits the schema too', 'candidates/details/{id}: the detail of a listed candidate fits the schema', 'timesheets/list: a candidate href resolves'] },
  { section: 'Resources and their fields', rule: 'sector_disciplines writes a discipline `<Sector>::<Discipline>` and a sector without one alone', spec: ['array of string; a discipline is written `<Sector>::<Discipline>`, a sector without discipline is written alone'], checks: ['candidates/list: the first page fits the candidate list schema'] },
  { section: 'Resources and their fields', kind: 'observation', rule: 'Every sector sector_disciplines names is among the candidate’s sectors', checks: ['candidates/list: every sector sector_disciplines names is among the sectors'], why: 'the spec gives sectors and sector_disciplines as two fields of the Candidate table and never ties one to the other: a deployment whose candidates name a discipline in a sector their sectors leave out is legal' },
  { section: 'Resources and their fields', rule: 'available_from_year, _day and _month are the year, day number and month name of available_from', spec: ['available_from_year, available_from_day, available_from_month | string (year, day number, month name)'], checks: ['candidates/list: available_from_year, _month and _day tell the date available_from gives'] },
  { section: 'Resources and their fields', rule: "A File entry's href is the URL of the download endpoint for that file", spec: ['`href` string URL of the download endpoint for that file'], checks: ['candidates/list: file hrefs point at /candidates/{timesheet,resume,document}/{id}', DOWNLOAD_OK] },
  {
    section: 'Resources and their fields',
    rule: 'A file listed twice (the same href: a candidate on two pages or a page and its detail, a timesheet on its list and among its candidate\'s, an attachment in its list and its detail) has one filename and one size',
    spec: [
      'File entry: `filename` string; `href` string URL of the download endpoint for that file; `filesize` string of bytes; `created_at` string timestamp.',
      'object: `href` (URL of the timesheet download), `filename` string, `filesize` integer bytes',
      'object: `href` (URL of applications/attachment/{id}), `filename` (string)',
      '`Content-Disposition: attachment` with `filename` set to the original file name',
    ],
    checks: ['*: a file listed twice (one href) has one name and one size'],
  },
  {
    section: 'Resources and their fields',
    rule: "A candidate's application entry links an application of the entry's job (those the run reads anyway, and a share of the others a run, in turn across runs)",
    spec: ['Candidate application entry: `job` object (`id` integer, `title` string, `reference` string, `location` string); `href` string URL of applications/details/{id}; `application_date` string timestamp.', 'object: `id` integer; `title`, `location`, `salary`, `reference` strings (salary is display text with currency symbol and unit)'],
    checks: ["candidates/details/{id}: each application entry links an application of the entry's job (a share a run, in turn)"],
  },
  { section: 'Resources and their fields', rule: "A candidate's application entry links to applications/details/{id}", spec: ['`href` string URL of applications/details/{id}'], checks: ['candidates/list: application hrefs point at /applications/details/{id}', 'candidates/list: an application href resolves'] },
  { section: 'Resources and their fields', part: 'Application', rule: "applications/list gives applications with the Application table's fields", spec: ['`status`, `total`, `data` array of Application, `next_page` (URL string)', ...APPLICATION_FIELDS], checks: ['applications/list: the first page fits the application list schema', 'applications/list: every other answer of the list fetched fits the schema too'] },
  { section: 'Resources and their fields', part: 'Application', rule: "applications/details/{id} gives one with the Application table's fields", spec: ['`status`, `total`, `data` array of one Application', ...APPLICATION_FIELDS], checks: ['applications/details/{id}: the detail of a listed application fits the schema', 'candidates/list: an application href resolves'] },
  { section: 'Resources and their fields', rule: "A list item's href is its own applications/details/{id}", spec: ['string URL of applications/details/{id} (in list items)'], checks: ['applications/list: hrefs point at /applications/details/{id} of the application', 'candidates/list: an application href resolves'] },
  { section: 'Resources and their fields', rule: "An applicant's attachment href is the URL of applications/attachment/{id}", spec: ['object: `href` (URL of applications/attachment/{id}), `filename` (string)'], checks: ['applications/list: attachment hrefs point at /applications/attachment/{id}', 'applications/attachment/{id}: the listed link answers 200 with Content-Type application/octet-stream'] },
  { section: 'Resources and their fields', rule: "A vacancy's salary is display text with a currency symbol and a unit", spec: ['salary is display text with currency symbol and unit'], checks: ["applications/list: a vacancy's salary shows a currency symbol and a unit"] },
  { section: 'Resources and their fields', part: 'Timesheet list entry', rule: "A timesheet entry has the Timesheet list entry table's fields; filesize is integer bytes", spec: ['`status`, `total`, `next_page` (URL string), `prev_page` (URL string, or false when there is none), `data` array of Timesheet list entry', ...TIMESHEET_FIELDS], checks: ['timesheets/list: the first page fits the timesheet list schema', 'timesheets/list: every other answer of the list fetched fits the schema too'] },
  { section: 'Resources and their fields', rule: "A timesheet entry's attachment links its download", spec: ['object: `href` (URL of the timesheet download), `filename` string, `filesize` integer bytes'], checks: ['timesheets/list: attachment hrefs point at /candidates/timesheet/{id}', 'timesheets/list: an attachment href resolves'] },
  { section: 'Resources and their fields', rule: "A timesheet entry's candidate links the candidate's details", spec: ['`href` URL of candidates/details/{id}'], checks: ['timesheets/list: candidate hrefs point at /candidates/details/{id} of the candidate', 'timesheets/list: a candidate href resolves'] },
  { section: 'Resources and their fields', part: 'Marketing record', rule: 'A marketing record has a candidate (email, id, ip_address), an action and created_at', spec: ['`status`, `total`, `data` array of Marketing record, `next_page` (URL string)', ...MARKETING_FIELDS], checks: ['marketing/list: the first page fits the marketing record list schema', 'marketing/list: every other answer of the list fetched fits the schema too'] },
  { section: 'Resources and their fields', part: 'Metric', rule: 'Metrics come as the Metric table says: a label, a total and monthly aggregations', spec: ['`status`, `metrics` array of Metric', ...METRIC_FIELDS], checks: ['metrics/list: the answer fits the metrics schema'] },
  { section: 'Resources and their fields', rule: 'Metrics return the ten labels the spec names', spec: ['Labels returned: `Jobs created`, `Job searches`, `Client enquiries`, `Registrations`, `Applications`, `Timesheets`, `Consent opt-ins`, `Consent opt-outs`, `Job submissions`, `Candidate interest`.'], checks: ['metrics/list: every label the spec names is there once'] },
  { section: 'Resources and their fields', kind: 'observation', rule: "A metric's total is the sum of its months' totals", checks: ['metrics/list: each total is the sum of its months'], why: 'the spec gives a metric a total and monthly aggregations and says "The number of months per metric differs"; it never says the total is their sum: a total over all time beside the last months listed is legal' },
  { section: 'Resources and their fields', rule: 'Aggregations run newest month first', spec: ['Aggregations are ordered newest month first.'], checks: ['metrics/list: months are newest first within each metric'] },
  { section: 'Resources and their fields', rule: 'Months with no activity are included with total 0', spec: ['Months with no activity are included with total 0.'], checks: ['metrics/list: no month is missing between the first and the last of a metric'] },
  { section: 'Resources and their fields', rule: 'A job/add needs every required field', spec: ['Required fields, all of which must be present:', ADD_FAILS], checks: ['job/add: a job without a required field answers 412'] },
  { section: 'Resources and their fields', rule: 'Constrained fields take the values job/fields gives', spec: ['salary_unit: `Per hour`, `Per year`, `Per week`, `Per month`.', 'Constrained values (values may change over time; the job/fields endpoint returns the current ones):'], checks: ['job/add: an invalid salary_unit answers 412 with a message naming salary_unit'] },
  { section: 'Resources and their fields', rule: 'job/add takes each listed value of each constrained field, and job_industry as a sector alone or `<Sector>/<Sub_sector>` (every form in a run with --rate-limit-window 0; else one form a run, the ledger turning them)', spec: [VALUE_LISTS.job_industry as string, 'Either the sector alone or `<Sector>/<Sub_sector>` is accepted, and the service splits it.', ...Object.values(VALUE_LISTS).filter((w) => !w.startsWith('job_industry'))], checks: ['job/add: a valid job answers 200 with the public page URL and the new id'] },
  { section: 'Resources and their fields', rule: 'A job read back, seeking, notice_period and consent values, marketing id 0, the approval action', spec: ['The fields of a job record as returned by any read operation: not shown.', 'Allowed values of seeking, notice_period and consent type and value: not shown beyond the values seen above.', 'The meaning of 0 is not shown.', 'The action value for an approval: not shown.'], checks: [], why: 'not shown: the schemas take any string there; what comes is observed (drift)' },

  { section: 'States and transitions', rule: 'A job added with published 0 is not published: its public page does not answer 200 (the request matrix)', spec: ['Job is created and gets an id; it is published or not according to `published`.', 'On success `status` 200, `message` string holding the public job page URL, `id` integer.'], checks: ['job/add: the public page of a job added with published 0 does not answer 200'] },
  { section: 'States and transitions', rule: 'job/add creates a job with an id, published as `published` says', spec: ['Job is created and gets an id; it is published or not according to `published`.'], checks: ['job/add: a valid job answers 200 with the public page URL and the new id', 'job/add: the public page of the new published job answers 200'] },
  { section: 'States and transitions', rule: 'job/close unpublishes the job: its public page then answers 404', spec: ['Job is marked unpublished; its public page then answers 404.'], checks: ['job/close: the public page answers 404 after close'] },
  { section: 'States and transitions', rule: 'job/expire stops the job accepting applications', spec: ['Job is marked as no longer accepting applications.'], checks: [], why: 'the effect is not visible through the API (applications are not made through it); its answer is checked under Endpoints' },
  { section: 'States and transitions', rule: 'job/repost gives new closing and expiry dates, closing_date as sent', spec: ['Job is reposted with new closing and expiry dates one month later. The request may carry `closing_date`.'], checks: [], why: 'the dates cannot be read back: job records are not shown; its answer is checked under Endpoints' },
  { section: 'States and transitions', rule: 'job/delete removes the job for good: its page is gone, and it can no longer be closed, expired or reposted', spec: ['Job is removed from the system permanently.'], checks: ['job/delete: the public page answers 404 after delete', 'job/delete: close of the deleted job is refused', 'job/delete: expire of the deleted job is refused', 'job/delete: repost of the deleted job is refused'] },
  { section: 'States and transitions', kind: 'observation', rule: 'A second delete of a deleted job is refused', checks: ['job/delete: delete of the deleted job is refused'], why: 'the job stays removed whatever a second delete answers, which is all "Job is removed from the system permanently." asks; "the error when an operation does not fit the current state: not shown": a deployment whose delete answers success again (an idempotent delete) is legal' },
  { section: 'States and transitions', rule: 'From which states each operation applies, and its error otherwise; states of the other records', spec: ['The states that each operation may be applied from, and the error when an operation does not fit the current state: not shown.', 'States and transitions of candidates, applications, timesheets and marketing records: not shown.'], checks: [], why: 'not shown: refusals after delete are observed (error-body)' },

  { section: 'Endpoints', rule: 'Every JSON answer carries status; lists and details also total and data', spec: [ENVELOPE], checks: [...SCHEMAS, 'metrics/list: the answer fits the metrics schema'] },
  { section: 'Endpoints', rule: 'A list answer with no records (since after the newest) still carries data, an empty array, and total 0', spec: [ENVELOPE, SINCE], checks: ['*/list: the answer with no records (since after the newest) fits the schema, data an empty array and total 0'] },
  { section: 'Endpoints', rule: 'Every answer that sends Content-Length sends that many bytes', spec: ['RFC 9110 §8.6'], checks: [`${WIRE}: each Content-Length is the number of bytes that came`] },
  { section: 'Endpoints', rule: 'Every header the kit reads that is not a list (Content-Type, Content-Length, Retry-after, Content-Disposition, Content-Transfer-Encoding) comes on one field line, on every answer that sends it, the public job pages included', spec: ['RFC 9110 §5.3', 'RFC 9110 §8.3 "singleton"', 'RFC 9110 §8.6 "same decimal value repeated"'], checks: [`${WIRE}: each header the kit reads that is not a list comes on one field line`] },
  { section: 'Endpoints', rule: 'POST bodies are JSON with Content-Type application/json', spec: ['POST bodies must be JSON with header `Content-Type: application/json`.'], checks: [], why: 'a rule for requests', client: 'the kit sends every POST as JSON with that Content-Type', verdict: ['post-json'] },
  { section: 'Endpoints', rule: 'A GET sent with a Content-Type (JSON, or one that is not) is answered as without it: a success as it is, and asked of the same page, the same total, records (each once, the same ones in the same order, alike) and links, but for records arriving in between', spec: ['A content-type header on GET requests is ignored.'], checks: ['marketing/list: a GET sent with Content-Type * is answered as without it'] },
  {
    section: 'Endpoints',
    rule: 'job/add answers status 200, a message holding the public job page URL, and the id: every add a run makes, those of the request cases too (the add allowed, the job a repost or delete case adds first)',
    spec: ['On success `status` 200, `message` string holding the public job page URL, `id` integer.'],
    checks: ['job/add: a valid job answers 200 with the public page URL and the new id', ...REQUEST_CASES.filter((c) => (c.operation === 'add' && c.allowed) || c.needsJob).map((c) => `${c.endpoint}: ${c.name}`)],
  },
  { section: 'Endpoints', rule: 'job/delete answers status 200 with a message saying the job has been deleted', spec: ['`status` 200, `message` text saying the job has been deleted'], checks: ['job/delete: *answers status 200 with a message*', 'job/delete: the message of * says the job has been deleted'] },
  { section: 'Endpoints', rule: 'job/close answers status 200 with a message saying the job has been closed', spec: ['`status` 200, `message` text saying the job has been closed (unpublished)'], checks: ['job/close: *answers status 200 with a message*', 'job/close: the message of * says the job has been closed (unpublished)'] },
  { section: 'Endpoints', rule: 'job/expire answers status 200 with a message saying the job has been expired', spec: ['`status` 200, `message` text saying the job has been expired'], checks: ['job/expire: *answers status 200 with a message*', 'job/expire: the message of * says the job has been expired'] },
  { section: 'Endpoints', rule: 'job/repost takes the id and a closing_date and answers status 200 with a message saying the job has been reposted', spec: ['`{id: integer, closing_date: string}` in the form of the date fields', '`status` 200, `message` text saying the job has been reposted'], checks: ['job/repost: *answers status 200 with a message*', 'job/repost: the message of * says the job has been reposted'] },
  { section: 'Endpoints', rule: 'job/fields gives the current values of the constrained fields', spec: ['the current values of the constrained job fields', 'Constrained values (values may change over time; the job/fields endpoint returns the current ones):'], checks: ['job/fields: gives every constrained list, each a non-empty list of distinct strings'] },
  { section: 'Endpoints', kind: 'observation', rule: "job/fields writes the values the spec lists in the spec's casing", checks: ["job/fields: values the spec lists keep the spec's exact casing"], why: 'the spec lists the values as they were and says "values may change over time; the job/fields endpoint returns the current ones": a value in another casing is such a change (one value gone, another added), which the job-fields observation reports' },
  { section: 'Endpoints', rule: 'A candidate details answer holds the one candidate asked for, the one a timesheet links to as well', spec: ['`status`, `total`, `data` array of one Candidate'], checks: ['candidates/details/{id}: the detail holds exactly the listed candidate', 'timesheets/list: a candidate href resolves'] },
  { section: 'Endpoints', rule: 'An application details answer holds the one application asked for, the one a candidate links to as well', spec: ['`status`, `total`, `data` array of one Application'], checks: ['applications/details/{id}: the detail holds exactly the listed application', 'candidates/list: an application href resolves'] },
  { section: 'Endpoints', rule: 'The details of the last listed record hold that record (the request matrix)', spec: ['path `id`, integer candidate id', '`status`, `total`, `data` array of one Candidate', '`status`, `total`, `data` array of one Application'], checks: ['candidates/details/{id}: the detail of the last listed candidate holds that candidate', 'applications/details/{id}: the detail of the last listed application holds that application'] },
  { section: 'Endpoints', rule: 'since (YYYY-MM-DD HH:MM) keeps the records at or after it', spec: [SINCE, 'optional query `since` (same format as above)', 'optional query `since`, optional `page`', IN_STEP], checks: ['*/list: the answer with since *', '*/list: every record of the answer with since is at or after since'], verdict: ['since-no-gap', 'copy-in-step'] },
  { section: 'Endpoints', rule: 'Every page of an answer with since, the second and the last too, keeps only records at or after since (the request matrix)', spec: [SINCE, NEXT_PAGE], checks: ['*/list: the second page of the answer with since holds only records at or after since', '*/list: the last page of the answer with since holds only records at or after since'] },
  { section: 'Endpoints', rule: 'applications/list takes vacancy and answers only that vacancy’s applications', spec: ['optional `vacancy` (vacancy id, integer)'], checks: ['applications/list: the vacancy filter answers only applications for that vacancy', 'applications/list: next_page of the vacancy answer carries vacancy and page'] },
  { section: 'Endpoints', rule: 'Every page of the answer for one vacancy, the second and the last too, holds only that vacancy’s applications (the request matrix)', spec: ['optional `vacancy` (vacancy id, integer)', NEXT_PAGE], checks: ['applications/list: the second page of the vacancy answer holds only applications for that vacancy', 'applications/list: the last page of the vacancy answer holds only applications for that vacancy'] },
  { section: 'Endpoints', rule: 'A list asked with two or more of its filters at once (applications/list: since with vacancy) honours each, on every page', spec: ['optional query `since` (same format as above), optional `vacancy` (vacancy id, integer), optional `page`', SINCE, NEXT_PAGE], checks: ['*/list: the answer with * and * holds only records matching each', '*/list: the second page of the answer with * and * holds only records matching each'] },
  { section: 'Endpoints', rule: 'Every page of a walk with filters (since, vacancy, both), from the first to the last, keeps each filter (the walk: src/contract/walk.ts)', spec: [SINCE, 'optional `vacancy` (vacancy id, integer)', NEXT_PAGE], checks: ['*/list: each filtered walk holds only records matching its filters on every page'] },
  { section: 'Endpoints', rule: 'applications/list runs newest first (highest id first), within every page and across every page boundary of a walk', spec: ['List entries are ordered newest first (highest id first).'], checks: ['applications/list: applications are newest first (highest id first) within and across pages', 'applications/list: each walk runs newest first (highest id first) within and across every page'] },
  { section: 'Endpoints', rule: 'timesheets/list carries prev_page, a URL of the page before (with the filters given) or false when there is none, on every page of a walk', spec: ['`prev_page` (URL string, or false when there is none)'], checks: ['timesheets/list: prev_page is false on the first page', 'timesheets/list: prev_page on the second page is a URL of the first page', "timesheets/list: each walk's prev_page names the page before on every page (false on the first)"] },
  { section: 'Endpoints', rule: 'Timesheet entries link /candidates/timesheet/{id}; both timesheet paths are downloads', spec: ['The list entries point their download links at /candidates/timesheet/{id}; both download paths are listed as timesheet downloads.'], checks: ['timesheets/list: attachment hrefs point at /candidates/timesheet/{id}', 'candidates/timesheets/download/{id}: the listed link answers 200 with an octet-stream Content-Type'], verdict: ['download-listed-ids'] },
  { section: 'Endpoints', rule: 'The body of close and expire; the paging of candidates/list', spec: ['body of close: not shown', 'body of expire: not shown', 'Paging links of the candidates list: not shown.'], checks: [PROFILE], why: 'not shown: profile points (closeExpireIdField, pageCandidates)' },

  { section: 'Paging', rule: 'next_page is a full URL of the next page of the same list, with page (and since, vacancy where given), on the deployment itself', spec: [NEXT_PAGE], checks: ['*/list: next_page of the first page is an absolute URL on the same origin carrying page', '*/list: next_page of the answer with since carries since and page', 'applications/list: next_page of the vacancy answer carries vacancy and page'], verdict: ['walk-to-last-page'] },
  { section: 'Paging', rule: 'The next page continues the same list: the same total, other records (a live board aside)', spec: [NEXT_PAGE], checks: ['*/list: total is the same on the first and the second page, but for records that arrived during the run', "*/list: the second page's records are not the first page's, but for those pushed on by arrivals"] },
  { section: 'Paging', rule: 'A walk (page 1, then every next_page, as a client reads a list) carries next_page on every page but its last, naming the next page of the same list with page and the filters given; its last page names none', spec: [NEXT_PAGE], checks: ['*/list: each walk carries next_page on every page but its last, naming the next page of the same list with its filters', "*/list: each walk's last page is answered as the last"] },
  { section: 'Paging', rule: 'A walk reads one list: the same total on every page (never less than on a page read before), every record once, none twice within a page or across pages and none skipped, the last page\'s total the records read from page 1 to it (records arriving during the run aside)', spec: [NEXT_PAGE, ENVELOPE], checks: ['*/list: each walk keeps one total on every page, but for arrivals', '*/list: each walk reads every record once: none twice, none skipped, but for arrivals'] },
  { section: 'Paging', rule: "The last page (page by the first page's total and size) continues the same list: other records than the first page's, and in applications/list lower ids (the request matrix)", spec: [NEXT_PAGE, 'List entries are ordered newest first (highest id first).'], checks: ["*/list: the last page fits the schema and holds none of the first page's records"] },
  { section: 'Paging', kind: 'observation', rule: 'What a page past the last answers (the request matrix)', checks: ['*/list: a page past the last answers (what it answers is an observation)'], why: 'the spec says only that next_page names the next page and "The page size: not shown."; it never says what a page past the last answers (no records, a 404, a 412): seen and reported, never failed' },
  { section: 'Paging', rule: "The page size; the last page's next_page; a page past the last", spec: ['The page size: not shown.'], checks: [PROFILE], why: 'not shown: profile points (pageSize, lastPageNextPage, outOfRangePage)' },

  { section: 'Endpoints', rule: 'Each download path answers the file a listed link names (the link from the list, the path the spec gives)', spec: DOWNLOAD_ROWS, checks: ['candidates/timesheet/{id}: the listed link answers 200 with an octet-stream Content-Type', 'candidates/resume/{id}: the listed link answers 200', 'candidates/document/{id}: the listed link answers 200', 'applications/attachment/{id}: the listed link answers 200 with Content-Type application/octet-stream', 'candidates/timesheets/download/{id}: the listed link answers 200 with an octet-stream Content-Type'] },
  { section: 'Downloads', rule: 'A download answers the raw file', spec: ['A file download answers with the raw file.'], checks: [DOWNLOAD_OK, '*: Content-Length equals the bytes received'] },
  { section: 'Downloads', rule: 'Content-Type application/octet-stream for attachments, an octet-stream type for timesheets', spec: ['`Content-Type` (application/octet-stream for application attachments; a timesheet-specific octet-stream type for timesheets)'], checks: ['applications/attachment/{id}: the listed link answers 200 with Content-Type application/octet-stream', 'candidates/timesheet/{id}: the listed link answers 200 with an octet-stream Content-Type', 'candidates/timesheets/download/{id}: the listed link answers 200 with an octet-stream Content-Type'] },
  { section: 'Downloads', rule: 'Content-Length gives the bytes', spec: ['`Content-Length` (bytes)', 'RFC 9110 §8.6'], checks: ['*: Content-Length equals the bytes received'] },
  { section: 'Downloads', rule: 'Content-Length is the size the list gives the file', spec: ['`Content-Length` (bytes)', '`filesize` string of bytes', '`filesize` integer bytes'], checks: ['*: Content-Length equals the listed filesize'] },
  { section: 'Downloads', rule: 'Content-Disposition: attachment, with the original file name', spec: ['`Content-Disposition: attachment` with `filename` set to the original file name', 'RFC 6266 §4.1 "filename-parm"', 'RFC 6266 §4.1 "multiple instances"'], checks: ['*: Content-Disposition is attachment with the listed filename'] },
  { section: 'Downloads', rule: 'Content-Transfer-Encoding: binary', spec: ['`Content-Transfer-Encoding: binary`'], checks: ['*: Content-Transfer-Encoding is binary'] },
  { section: 'Downloads', rule: 'Downloaded files are the caller’s to scan for malware', spec: ["Downloaded files are the caller's responsibility to scan for malware."], checks: [], why: 'a rule for clients', client: 'the kit keeps no downloaded file' },

  { section: 'Authentication', rule: 'Every operation requires HTTP Basic credentials user:password: reads, details, downloads, writes; a wrong password is refused', spec: ['Every operation requires authentication (see Authentication).', BASIC, 'The credentials are sent with every request.', 'RFC 7617 §2 "will service the request"'], checks: ['auth: * refused with 401 or 403', 'job/repost: a write without credentials is refused with 401 or 403'], verdict: ['credentials'] },
  { section: 'Authentication', rule: 'The account’s own credentials sent another way than Basic `<username>:<password>` (a Bearer token, Digest, no scheme, base64 that does not decode, no colon) are refused', spec: [BASIC, 'No token exchange exists.', 'RFC 7617 §2 "will service the request"'], checks: ['auth: the credentials sent as * are refused with 401 or 403'] },
  { section: 'Authentication', rule: 'Basic with its name in another case (`basic`) is Basic: the account’s credentials so sent are accepted (HTTP Basic brings in RFC 9110’s authentication framework, whose scheme names are case-insensitive)', spec: [BASIC, 'RFC 9110 §11.1'], checks: ['auth: the credentials sent with the scheme name in lower case (basic) are accepted'] },
  { section: 'Authentication', rule: 'Every 401 of the run carries WWW-Authenticate with a challenge for Basic whose realm is a quoted-string (other challenges beside it, names in any case and a charset allowed); a refusal answered 403 needs none', spec: [BASIC, 'RFC 9110 §11.6.1 "MUST send"', 'RFC 9110 §15.5.2', 'RFC 7617 §2 "\'realm\' is REQUIRED"', 'RFC 9110 §11.5'], checks: [`${WIRE}: each 401 carries a WWW-Authenticate challenge for Basic with a quoted realm`] },
  { section: 'Authentication', rule: 'No token exchange exists', spec: ['No token exchange exists.'], checks: [], why: 'an absence: nothing to call' },
  { section: 'Authentication', rule: 'The status, challenge and body of a refusal', spec: ['Error codes other than 412, 429 and 404: not shown.'], checks: [PROFILE], why: 'not shown: profile points (authStatus: 401 or 403, RFC 9110 §11.4 "SHOULD send a 401" leaving 403 open; authChallenge, the challenge of a 403, RFC 9110 §11.6.1 "MAY"; authBody)' },

  { section: 'Errors', rule: 'An invalid posted field answers status 412 with a message naming it', spec: ['JSON body with `status` 412 and `message` naming the problem', ADD_FAILS], checks: ['job/add: an invalid salary_unit answers 412 with a message naming salary_unit'] },
  { section: 'Errors', rule: 'Too many requests answer HTTP 429 with Retry-after in seconds', spec: ['HTTP 429 with header `Retry-after` holding the seconds to wait before retrying', 'RFC 9110 §10.2.3 "delay-seconds value"'], checks: ['rate limit: a repeated request within the window answers 429 with Retry-after in seconds'] },
  { section: 'Errors', rule: 'Every 429 of the run carries Retry-after as delay-seconds (digits; 0 is legal, an HTTP-date is not the seconds the spec names)', spec: ['HTTP 429 with header `Retry-after` holding the seconds to wait before retrying', 'RFC 9110 §10.2.3 "delay-seconds value"'], checks: [`${WIRE}: each 429 carries Retry-after as a number of seconds`] },
  { section: 'Errors', rule: "A closed job's public page answers 404", spec: ["A closed (unpublished) job's public page is requested | 404"], checks: ['job/close: the public page answers 404 after close'] },
  { section: 'Errors', rule: 'On success the JSON body carries status 200', spec: [SUCCESS], checks: ['job/fields: answers 200 with a JSON body whose status is 200', 'job/*: * answers status 200 with a message', ...SCHEMAS] },
  { section: 'Errors', rule: 'Other error codes; error bodies of reads and missing ids', spec: ['Error codes other than 412, 429 and 404: not shown.', 'Error bodies of the read endpoints and of missing ids: not shown.'], checks: [PROFILE], why: 'not shown: profile points (notFoundBody, malformedSince, errorHttpStatus for 404s, preconditionHttpStatus for the status line of a 412 body, envelopeKeys, rateLimitBody, burstLimit)' },

  { section: 'Limits', rule: 'Each full request may be made once per 15 minutes; more answers 429 with Retry-after', spec: ['Each endpoint may be requested once per 15 minutes.', 'Access is rate limited (see Limits).', LIMIT_429, 'RFC 9110 §10.2.3 "delay-seconds value"'], checks: ['rate limit: a repeated request within the window answers 429 with Retry-after in seconds'], client: 'the kit makes each full request at most once per window and keeps windows across runs (--ledger)', verdict: ['one-request-per-window', 'retry-after', 'download-once'] },
  { section: 'Limits', rule: 'A full request is counted by path and query: another page, since or download is a fresh one', spec: ['An endpoint is counted by full request: different paths count separately (for example a document download and a resume download), and different query values count separately (for example page=1 and page=2).'], checks: ['rate limit: fresh full requests (another page, a since, another download) are not limited by the 429 of another'] },
  { section: 'Limits', rule: 'Maximum page size, payload size and field lengths; the window a deployment keeps', spec: ['Maximum page size, payload size and field lengths: not shown.'], checks: [PROFILE], why: 'not shown: page size and window are profile points (pageSize, rateLimitWindow)' },

  { section: 'Versioning', rule: 'The version is the path prefix /api/v1: every link stays under it', spec: ['The version is carried in the path prefix /api/v1.', 'All paths are relative to {base_url} and begin with /api/v1.', 'Every path below begins with {base_url}/api/v1.'], checks: ['*: *hrefs point at *', '*/list: next_page of the first page is an absolute URL on the same origin carrying page'] },
  { section: 'Versioning', rule: 'Constrained values change; job/fields gives the current ones and clients check it periodically', spec: ['The sets of allowed values of constrained job fields can change as industries are added or removed; the job/fields endpoint gives the current values and clients should check it periodically.'], checks: ['job/fields: gives every constrained list, each a non-empty list of distinct strings'], client: 'the kit reads job/fields first in every run and checks answers against its values', verdict: ['current-job-fields', 'no-unchanged-resend'] },
  { section: 'Versioning', rule: 'Deprecation and compatibility policy', spec: ['Deprecation and compatibility policy for new versions: not shown.'], checks: [], why: 'not shown' },
  // the request cases the schemas yield (src/contract/cases.ts): a row per field of each body the spec shows
  // a constrained field's cases rest on its list of values too ("one of the job_type values")
  ...CASE_RULES.map((r): Rule => ({ section: r.operation === 'add' ? 'Resources and their fields' : 'Endpoints', rule: r.rule, spec: [...r.spec, ...(r.operation === 'add' && VALUE_LISTS[r.field] !== undefined ? [VALUE_LISTS[r.field] as string] : [])], checks: r.checks, ...(r.open === undefined ? {} : { why: r.open }) })),
  // the free-text case: every field with no list, form or pattern in its schema takes text beyond ASCII letters (each field's row says "free text")
  { section: 'Resources and their fields', rule: "job/add takes any text in a free-text field (the schema's strings with no list, form or pattern)", spec: [FREE_TEXT_WORDS, ...FREE_TEXT_FIELDS.map((f) => FIELD_WORDS.add[f] as string), SUCCESS], checks: REQUEST_CASES.filter((c) => c.kind === 'free-text').map((c) => `${c.endpoint}: ${c.name}`) },
]

/**
 * Each pattern's expression, made once a process: a report matches every check against every
 * cell's and row's patterns, and compiling an expression per call was a tenth of a contract
 * run's CPU. Immutable (no flags, so no lastIndex) and bounded: patterns are the catalogue's.
 */
const PATTERNS = new Map<string, RegExp>()

/** Whether a check (`endpoint: name`) is one a row names. */
export function matches(pattern: string, check: string): boolean {
  let expression = PATTERNS.get(pattern)
  if (expression === undefined) {
    const source = pattern.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*')
    expression = new RegExp(`^${source}$`)
    if (PATTERNS.size >= 4096) PATTERNS.clear()
    PATTERNS.set(pattern, expression)
  }
  return expression.test(check)
}

/** How much of a check a pattern names outright: the more it spells out, the more it is about that check. */
const literal = (pattern: string) => pattern.replace(/\*/g, '').length

/**
 * The rows a check (`endpoint: name`) rests on: of the rows naming it, those whose
 * pattern spells out most of it (a row naming the check outright before one naming a
 * family of checks with `*`), in the catalogue's order.
 */
export function rulesOf(check: string, rules: readonly Rule[] = RULES): Rule[] {
  const named = rules.flatMap((rule) => {
    const best = Math.max(-1, ...rule.checks.filter((pattern) => matches(pattern, check)).map(literal))
    return best < 0 ? [] : [{ rule, best }]
  })
  const top = Math.max(-1, ...named.map((n) => n.best))
  return named.filter((n) => n.best === top).map((n) => n.rule)
}

/** What a check may fail a run for: the spec's words (and RFC sections) it rests on, or why it has none. */
export type Citation =
  | { kind: 'spec'; words: readonly string[] }
  /** No sentence backs it: it warns, never fails. */
  | { kind: 'observation'; why: string }
  /** A profile point's check: the deployment's own recorded choice, where the spec says "not shown". */
  | { kind: 'profile' }
  /** A check no row names (the rules test keeps there being none). */
  | { kind: 'none' }

export function citationOf(check: string, rules: readonly Rule[] = RULES): Citation {
  if (matches(PROFILE, check)) return { kind: 'profile' }
  const observation = rules.find((rule) => rule.kind === 'observation' && rule.checks.some((pattern) => matches(pattern, check)))
  if (observation) return { kind: 'observation', why: observation.why ?? 'no sentence of the spec says what it holds a deployment to' }
  const words = [...new Set(rulesOf(check, rules.filter((rule) => rule.kind !== 'observation')).flatMap((rule) => rule.spec ?? []))]
  return words.length > 0 ? { kind: 'spec', words } : { kind: 'none' }
}

/**
 * A quote in quotation marks; an RFC citation as its section, the RFC's title and the words
 * of the statements it names (`RFC 9110 §10.2.3 (HTTP Semantics): "A delay-seconds value is
 * …"`), the words as the index holds them (src/core/statements/rfc-statements.ts).
 */
export function wordsText(words: string): string {
  const rfc = RFC_CITATION.exec(words)
  if (!rfc) return `"${words.replace(/\s+/g, ' ')}"`
  const at = `RFC ${rfc[1]}${rfc[2] === undefined ? '' : ` §${rfc[2]}`}`
  const title = RFCS[rfc[1] as string] === undefined ? '' : ` (${RFCS[rfc[1] as string]})`
  const said = rfcStatements(words, STATEMENT_INDEX).map((e) => `"${e.words}"`)
  return `${at}${title}${said.length > 0 ? `: ${said.join(' ')}` : ''}`
}

/** The table for docs/contract.md, section by section. */
export function renderRules(rules: readonly Rule[] = RULES): string {
  const cell = (text: string) => text.replace(/\|/g, '\\|')
  const lines: string[] = []
  for (const section of SECTIONS) {
    lines.push(`### ${section}`, '', "| rule | the spec's words | checks that fail when it is broken | |", '|---|---|---|---|')
    for (const rule of rules.filter((r) => r.section === section)) {
      const observation = rule.kind === 'observation'
      const words = observation ? '— (an observation: no sentence backs it)' : (rule.spec ?? []).map((w) => cell(wordsText(w))).join('<br>')
      const checks = rule.checks.length === 0 ? '—' : rule.checks.map((c) => `\`${cell(c)}\``).join('<br>')
      const notes = [
        observation ? `observation, never a failure: ${rule.why ?? ''}` : rule.why,
        rule.client ? `clients: ${rule.client}` : undefined,
        rule.verdict ? `client verdict: ${rule.verdict.map((id) => `\`${id}\``).join(', ')}` : undefined,
      ]
        .filter((n) => n !== undefined)
        .map(cell)
        .join('; ')
      lines.push(`| ${cell(rule.rule)} | ${words} | ${checks} | ${notes} |`)
    }
    lines.push('')
  }
  return lines.join('\n')
}
