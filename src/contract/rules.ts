// Every rule the spec states, section by section, in our own words, with the checks
// that fail when a deployment breaks it — or why no black-box check can. The table in
// docs/contract.md is rendered from here (renderRules), and a test keeps it honest:
// every row names checks that exist, and every check of a full run appears in some row.
// A check is named `endpoint: name` as the summary prints it; `*` stands for any text.

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
  /** The checks that fail when it is broken (patterns of `endpoint: name`). */
  checks: readonly string[]
  /** Why no check (or only some) can tell: not shown (a profile point), an effect not visible, a rule for clients. */
  why?: string
  /** The kit's own behaviour where the spec states a rule for clients. */
  client?: string
  /**
   * Where the spec states a rule for clients: the ids of the fake's client-verdict rules
   * that hold a client to it (src/fake/verdict/rules.ts; docs/verdict.md).
   */
  verdict?: readonly string[]
}

const SCHEMAS = ['*/list: the first page fits the * list schema', '*/list: every other answer of the list fetched fits the schema too', '*: the detail of a listed * fits the schema']
const PROFILE = 'profile: * is as the profile records it'
const DOWNLOAD_OK = '*: the listed link answers 200*'

export const RULES: readonly Rule[] = [
  { section: 'Resources and their fields', rule: 'Every body is JSON, said by Content-Type application/json', checks: [...SCHEMAS, 'job/fields: answers 200 with a JSON body whose status is 200', 'metrics/list: the answer fits the metrics schema'] },
  { section: 'Resources and their fields', rule: 'Timestamps are YYYY-MM-DD HH:MM:SS unless stated', checks: SCHEMAS },
  { section: 'Resources and their fields', rule: "A candidate has the Candidate table's fields and types, with File, Candidate application and Consent entries", checks: ['candidates/list: the first page fits the candidate list schema', 'candidates/details/{id}: the detail of a listed candidate fits the schema'] },
  { section: 'Resources and their fields', rule: 'sector_disciplines writes a discipline <Sector>::<Discipline> and a sector without one alone; they are the sectors the candidate has', checks: ['candidates/list: the first page fits the candidate list schema', 'candidates/list: every sector sector_disciplines names is among the sectors'] },
  { section: 'Resources and their fields', rule: 'available_from_year, _day and _month are the year, day number and month name of available_from', checks: ['candidates/list: available_from_year, _month and _day tell the date available_from gives'] },
  { section: 'Resources and their fields', rule: "A File entry's href is the URL of the download endpoint for that file", checks: ['candidates/list: file hrefs point at /candidates/{timesheet,resume,document}/{id}', DOWNLOAD_OK] },
  { section: 'Resources and their fields', rule: "A candidate's application entry links to applications/details/{id}", checks: ['candidates/list: application hrefs point at /applications/details/{id}', 'candidates/list: an application href resolves'] },
  { section: 'Resources and their fields', rule: "An application has the Application table's fields; a list item's href is its own applications/details/{id}", checks: ['applications/list: the first page fits the application list schema', 'applications/details/{id}: the detail of a listed application fits the schema', 'applications/list: hrefs point at /applications/details/{id} of the application'] },
  { section: 'Resources and their fields', rule: "An applicant's attachment href is the URL of applications/attachment/{id}", checks: ['applications/list: attachment hrefs point at /applications/attachment/{id}', 'applications/attachment/{id}: the listed link answers 200 with Content-Type application/octet-stream'] },
  { section: 'Resources and their fields', rule: "A vacancy's salary is display text with a currency symbol and a unit", checks: ["applications/list: a vacancy's salary shows a currency symbol and a unit"] },
  { section: 'Resources and their fields', rule: "A timesheet entry links its download and its candidate's details; filesize is integer bytes", checks: ['timesheets/list: the first page fits the timesheet list schema', 'timesheets/list: attachment hrefs point at /candidates/timesheet/{id}', 'timesheets/list: candidate hrefs point at /candidates/details/{id} of the candidate', 'timesheets/list: an attachment href resolves', 'timesheets/list: a candidate href resolves'] },
  { section: 'Resources and their fields', rule: 'A marketing record has a candidate (email, id, ip_address), an action and created_at', checks: ['marketing/list: the first page fits the marketing record list schema'] },
  { section: 'Resources and their fields', rule: 'Metrics return the ten labels the spec names, each with a total and monthly aggregations', checks: ['metrics/list: the answer fits the metrics schema', 'metrics/list: every label the spec names is there once', 'metrics/list: each total is the sum of its months'] },
  { section: 'Resources and their fields', rule: 'Aggregations run newest month first; months with no activity are included with total 0', checks: ['metrics/list: months are newest first within each metric', 'metrics/list: no month is missing between the first and the last of a metric'] },
  { section: 'Resources and their fields', rule: 'A job/add needs every required field; constrained fields take the values job/fields gives', checks: ['job/add: a job without a required field answers 412', 'job/add: an invalid salary_unit answers 412 with a message naming salary_unit'] },
  { section: 'Resources and their fields', rule: 'A job read back, seeking, notice_period and consent values, marketing id 0, the approval action', checks: [], why: 'not shown: the schemas take any string there; what comes is observed (drift)' },

  { section: 'States and transitions', rule: 'job/add creates a job with an id, published as `published` says', checks: ['job/add: a valid job answers 200 with the public page URL and the new id', 'job/add: the public page of the new published job answers 200'] },
  { section: 'States and transitions', rule: 'job/close unpublishes the job: its public page then answers 404', checks: ['job/close: closing the job answers status 200 with a message', 'job/close: the public page answers 404 after close'] },
  { section: 'States and transitions', rule: 'job/expire stops the job accepting applications', checks: ['job/expire: expiring the job answers status 200 with a message'], why: 'the effect is not visible through the API (applications are not made through it)' },
  { section: 'States and transitions', rule: 'job/repost gives new closing and expiry dates, closing_date as sent', checks: ['job/repost: reposting the job with a closing_date answers status 200 with a message'], why: 'the dates cannot be read back: job records are not shown' },
  { section: 'States and transitions', rule: 'job/delete removes the job for good', checks: ['job/delete: deleting the job answers status 200 with a message', 'job/delete: the public page answers 404 after delete', 'job/delete: * of the deleted job is refused'] },
  { section: 'States and transitions', rule: 'From which states each operation applies, and its error otherwise; states of the other records', checks: [], why: 'not shown: refusals after delete are observed (error-body)' },

  { section: 'Endpoints', rule: 'Every JSON answer carries status; lists and details also total and data', checks: [...SCHEMAS, 'metrics/list: the answer fits the metrics schema'] },
  { section: 'Endpoints', rule: 'POST bodies are JSON with Content-Type application/json; a GET content-type is ignored', checks: [], why: 'a rule for requests', client: 'the kit sends every POST as JSON with that Content-Type', verdict: ['post-json'] },
  { section: 'Endpoints', rule: 'job/add answers status 200, a message holding the public job page URL, and the id', checks: ['job/add: a valid job answers 200 with the public page URL and the new id'] },
  { section: 'Endpoints', rule: 'job/delete, close, expire and repost answer status 200 with a message', checks: ['job/*: * answers status 200 with a message'] },
  { section: 'Endpoints', rule: 'job/fields gives the current values of the constrained fields', checks: ['job/fields: answers 200 with a JSON body whose status is 200', 'job/fields: gives every constrained list, each a non-empty list of distinct strings', "job/fields: values the spec lists keep the spec's exact casing"] },
  { section: 'Endpoints', rule: 'A details answer holds the one record asked for', checks: ['*: the detail holds exactly the listed *'] },
  { section: 'Endpoints', rule: 'since (YYYY-MM-DD HH:MM) keeps the records at or after it', checks: ['*/list: the answer with since *', '*/list: every record of the answer with since is at or after since'], verdict: ['since-no-gap', 'copy-in-step'] },
  { section: 'Endpoints', rule: 'applications/list takes vacancy and answers only that vacancy’s applications', checks: ['applications/list: the vacancy filter answers only applications for that vacancy', 'applications/list: next_page of the vacancy answer carries vacancy and page'] },
  { section: 'Endpoints', rule: 'applications/list runs newest first (highest id first)', checks: ['applications/list: applications are newest first (highest id first) within and across pages'] },
  { section: 'Endpoints', rule: 'timesheets/list carries prev_page, a URL or false when there is none', checks: ['timesheets/list: prev_page is false on the first page', 'timesheets/list: prev_page on the second page is a URL of the first page'] },
  { section: 'Endpoints', rule: 'Timesheet entries link /candidates/timesheet/{id}; both timesheet paths are downloads', checks: ['timesheets/list: attachment hrefs point at /candidates/timesheet/{id}', 'candidates/timesheets/download/{id}: the listed link answers 200 with an octet-stream Content-Type'], verdict: ['download-listed-ids'] },
  { section: 'Endpoints', rule: 'The body of close and expire; the paging of candidates/list', checks: [PROFILE], why: 'not shown: profile points (closeExpireIdField, pageCandidates)' },

  { section: 'Paging', rule: 'next_page is a full URL of the next page of the same list, with page (and since, vacancy where given), on the deployment itself', checks: ['*/list: next_page of the first page is an absolute URL on the same origin carrying page', '*/list: next_page of the answer with since carries since and page', 'applications/list: next_page of the vacancy answer carries vacancy and page'], verdict: ['walk-to-last-page'] },
  { section: 'Paging', rule: 'The next page continues the same list: the same total, other records (a live board aside)', checks: ['*/list: total is the same on the first and the second page, but for records that arrived during the run', "*/list: the second page's records are not the first page's, but for those pushed on by arrivals"] },
  { section: 'Paging', rule: "The page size; the last page's next_page; a page past the last", checks: [PROFILE], why: 'not shown: profile points (pageSize, lastPageNextPage, outOfRangePage)' },

  { section: 'Downloads', rule: 'A download answers the raw file', checks: [DOWNLOAD_OK, '*: Content-Length equals the bytes received'] },
  { section: 'Downloads', rule: 'Content-Type application/octet-stream for attachments, an octet-stream type for timesheets', checks: ['applications/attachment/{id}: the listed link answers 200 with Content-Type application/octet-stream', '*: the listed link answers 200 with an octet-stream Content-Type'] },
  { section: 'Downloads', rule: 'Content-Length gives the bytes', checks: ['*: Content-Length equals the bytes received', '*: Content-Length equals the listed filesize'] },
  { section: 'Downloads', rule: 'Content-Disposition: attachment, with the original file name', checks: ['*: Content-Disposition is attachment with the listed filename'] },
  { section: 'Downloads', rule: 'Content-Transfer-Encoding: binary', checks: ['*: Content-Transfer-Encoding is binary'] },
  { section: 'Downloads', rule: 'Downloaded files are the caller’s to scan for malware', checks: [], why: 'a rule for clients', client: 'the kit keeps no downloaded file' },

  { section: 'Authentication', rule: 'Every operation requires HTTP Basic credentials user:password: reads, details, downloads, writes; a wrong password is refused', checks: ['auth: *', 'job/repost: a write without credentials is refused with 401 or 403'], verdict: ['credentials'] },
  { section: 'Authentication', rule: 'No token exchange exists', checks: [], why: 'an absence: nothing to call' },
  { section: 'Authentication', rule: 'The status, challenge and body of a refusal', checks: [PROFILE], why: 'not shown: profile points (authStatus, authChallenge, authBody)' },

  { section: 'Errors', rule: 'An invalid posted field answers status 412 with a message naming it', checks: ['job/add: an invalid salary_unit answers 412 with a message naming salary_unit'] },
  { section: 'Errors', rule: 'Too many requests answer HTTP 429 with Retry-after in seconds', checks: ['rate limit: a repeated request within the window answers 429 with Retry-after in seconds'] },
  { section: 'Errors', rule: "A closed job's public page answers 404", checks: ['job/close: the public page answers 404 after close'] },
  { section: 'Errors', rule: 'On success the JSON body carries status 200', checks: ['job/fields: answers 200 with a JSON body whose status is 200', 'job/*: * answers status 200 with a message', ...SCHEMAS] },
  { section: 'Errors', rule: 'Other error codes; error bodies of reads and missing ids', checks: [PROFILE], why: 'not shown: profile points (notFoundBody, malformedSince, errorHttpStatus, rateLimitBody)' },

  { section: 'Limits', rule: 'Each full request may be made once per 15 minutes; more answers 429 with Retry-after', checks: ['rate limit: a repeated request within the window answers 429 with Retry-after in seconds'], client: 'the kit makes each full request at most once per window and keeps windows across runs (--ledger)', verdict: ['one-request-per-window', 'retry-after', 'download-once'] },
  { section: 'Limits', rule: 'A full request is counted by path and query: another page, since or download is a fresh one', checks: ['rate limit: fresh full requests (another page, a since, another download) are not limited by the 429 of another'] },
  { section: 'Limits', rule: 'Maximum page size, payload size and field lengths; the window a deployment keeps', checks: [PROFILE], why: 'not shown: page size and window are profile points (pageSize, rateLimitWindow)' },

  { section: 'Versioning', rule: 'The version is the path prefix /api/v1: every link stays under it', checks: ['*: *hrefs point at *', '*/list: next_page of the first page is an absolute URL on the same origin carrying page'] },
  { section: 'Versioning', rule: 'Constrained values change; job/fields gives the current ones and clients check it periodically', checks: ['job/fields: gives every constrained list, each a non-empty list of distinct strings'], client: 'the kit reads job/fields first in every run and checks answers against its values', verdict: ['current-job-fields', 'no-unchanged-resend'] },
  { section: 'Versioning', rule: 'Deprecation and compatibility policy', checks: [], why: 'not shown' },
]

/** Whether a check (`endpoint: name`) is one a row names. */
export function matches(pattern: string, check: string): boolean {
  const source = pattern.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*')
  return new RegExp(`^${source}$`).test(check)
}

/** The table for docs/contract.md, section by section. */
export function renderRules(rules: readonly Rule[] = RULES): string {
  const cell = (text: string) => text.replace(/\|/g, '\\|')
  const lines: string[] = []
  for (const section of SECTIONS) {
    lines.push(`### ${section}`, '', '| rule | checks that fail when it is broken | |', '|---|---|---|')
    for (const rule of rules.filter((r) => r.section === section)) {
      const checks = rule.checks.length === 0 ? '—' : rule.checks.map((c) => `\`${cell(c)}\``).join('<br>')
      const notes = [rule.why, rule.client ? `clients: ${rule.client}` : undefined, rule.verdict ? `client verdict: ${rule.verdict.map((id) => `\`${id}\``).join(', ')}` : undefined]
        .filter((n) => n !== undefined)
        .map(cell)
        .join('; ')
      lines.push(`| ${cell(rule.rule)} | ${checks} | ${notes} |`)
    }
    lines.push('')
  }
  return lines.join('\n')
}
