// The statement index of the spec (issue 34 item 1): one entry per statement splitSpec
// (split-statements.ts) cuts from ../shared/spec/job-board-api.md, keyed by its section and its exact
// words, saying what the statement is and why, in a few words:
// - `server`: what an answer must hold, or what request the server must accept or refuse.
//   Its checks are not listed here: they are the checks of the rows of
//   src/contract/rules.ts whose quotes stand in the statement (src/contract/statements.ts
//   joins the two), so the rules hang off the index and are written once. A server rule no
//   black-box check can tell says why in `untestable` (a number shown, to bring down); one
//   a check could tell but none does yet is counted as such.
// - `client`: a rule for clients: the fake's verdict rules that hold a client to it
//   (src/watch/verdict/client-rules.ts) and/or what the kit itself does.
// - `silence`: the spec says "not shown": the profile points that record what a deployment
//   chose there (schemas/profile.ts), or why there is none.
// - `description`: says what the service is or does, with nothing to check.
// - `latitude` (the RFCs' statements only): what an RFC the spec invokes allows a deployment;
//   a deployment taking it must pass.
// The statements of the RFCs the spec's words bring in (HTTP Basic, JSON, the download
// headers, Retry-after) are entries too, with the RFC's words, after the spec's (rfc-statements.ts).
// src/fake and src/profile may read it too, so it imports nothing but rfc-statements.ts; the index test
// (test/core/statements/statement-index.test.ts) fails on a statement without an entry, an entry whose
// words the spec no longer holds, and a name (verdict rule, profile point) that does not exist.

import { RFC_STATEMENTS } from './rfc-statements.js'

export type StatementKind = 'server' | 'client' | 'silence' | 'description' | 'latitude'

export interface IndexEntry {
  /** The statement's section path, as splitSpec gives it; an RFC statement's citation (`RFC 9110 §11.6.1`). */
  readonly section: string
  /** The statement's exact words, as splitSpec gives them (an RFC statement: the RFC's). */
  readonly words: string
  readonly kind: StatementKind
  /** What it is, in a few words. */
  readonly why: string
  /** A server rule no check from outside can tell (or tell whole): why. */
  readonly untestable?: string
  /** A rule for clients: the verdict rules that hold a client to it. */
  readonly verdict?: readonly string[]
  /** A rule for clients: what the kit itself does about it. */
  readonly kit?: string
  /** A silence (or a statement with a silent part): the profile points that record the deployment's choice. */
  readonly points?: readonly string[]
  /**
   * A checked server rule whose derived deviation the kit does not catch yet: what gets
   * through. Counted and shown; the deviation harness fails once the kit catches it, so the
   * mark comes off.
   */
  readonly notCaught?: string
  /** A silence or a latitude whose legal twin the kit fails (a false alarm): what fails. */
  readonly twinFails?: string
  /** An RFC statement: its citation (`RFC 9110 §11.6.1`, the same as its section). */
  readonly rfc?: string
  /** An RFC statement: the spec's words (each a statement of the spec) that bring the RFC in. */
  readonly invokedBy?: readonly string[]
}

type Extra = Omit<IndexEntry, 'section' | 'words' | 'kind' | 'why' | 'rfc' | 'invokedBy'>
type Row = [kind: StatementKind, words: string, why: string, extra?: Extra]

const under = (section: string, rows: readonly Row[]): IndexEntry[] => rows.map(([kind, words, why, extra]) => ({ section, words, kind, why, ...extra }))

const JOB = 'Resources and their fields › Job (input to job/add)'
/** A required field of the add: the add must refuse a job breaking it (412 naming it) and accept one keeping it. */
const REQUIRED = 'request: job/add refuses the field missing or of another type or form (412 naming it), accepts it as stated'
const OPTIONAL = 'request: job/add accepts the field as stated or absent, refuses another type or form (412 naming it)'
const FIELD = (what: string) => `answer: ${what} in every list, detail and nested entry`
const DOWNLOAD = 'answer: the download of a listed file, with the Downloads headers'

/** The spec's own statements, one entry each. */
export const SPEC_INDEX: readonly IndexEntry[] = [
  ...under('Recruitment Job Board Data API', [
    ['description', 'This document covers the whole service: job management, and read access to candidates, applications, timesheets, marketing consent records and metrics.', "the document's scope"],
    ['server', 'All paths are relative to {base_url} and begin with /api/v1.', 'answer: every link the service gives stays under /api/v1 of the base URL'],
  ]),
  ...under('What the service does', [
    ['description', 'The service is a recruitment job-board interface with two parts.', 'an overview'],
    ['description', 'A write interface for job postings.', 'an overview: the job operations are each a row under Endpoints'],
    ['description', 'A client adds, closes, expires, reposts and deletes jobs, and reads the list of allowed values for constrained job fields.', 'an overview of the job operations, each a row under Endpoints'],
    ['description', 'A read interface for data gathered by the job board: candidates, their files (timesheets, resumes, documents), applications and their attachments, timesheets, marketing consent approvals and revocations, and monthly metrics.', 'an overview of the read endpoints, each a row under Endpoints'],
    ['client', "It is meant to keep a client's copy of the board's data in step with the board.", "the client's purpose: a copy in step, read by since", { verdict: ['copy-in-step', 'since-no-gap'], kit: 'the kit reads each list with since and checks it keeps what is at or after it' }],
    ['client', 'It is not meant for real-time queries.', 'clients do not poll: the rate limit enforces it', { verdict: ['one-request-per-window'] }],
    ['server', 'Access is rate limited (see Limits).', 'answer: a request repeated within the window is refused with 429'],
    ['client', "Downloaded files are the caller's responsibility to scan for malware.", 'the caller scans what it downloads', { kit: 'the kit keeps no downloaded file' }],
    ['description', 'The service accepts no liability for their content.', 'a legal notice'],
  ]),
  ...under('Resources and their fields', [
    ['server', 'All bodies are JSON.', 'answer: every body (but downloads) is JSON, said by its Content-Type'],
    ['server', 'Timestamps are strings of the form `YYYY-MM-DD HH:MM:SS` unless stated.', 'answer: the form of every timestamp field'],
  ]),
  ...under(JOB, [
    ['server', 'Required fields, all of which must be present:', 'request: job/add refuses a job without any one of them (412 naming it)'],
    ['server', '| published | integer | 1 or 0 |', REQUIRED],
    ['server', '| featured | integer | 1 or 0 |', REQUIRED],
    ['server', '| job_title | string | free text |', REQUIRED],
    ['server', '| job_reference | string | free text |', REQUIRED],
    ['server', '| job_industry | string | one of the job_industry values below |', REQUIRED],
    ['server', '| job_telecommute | string | `yes` or `no` |', REQUIRED],
    ['server', '| job_location | string | free text; the location shown to candidates in results and filters; may be a value from a predefined location list |', REQUIRED, { untestable: 'the predefined location list is not shown: the kit cannot tell a value of it from free text' }],
    ['server', '| job_latitude | number (double) | must denote a real point; not required when job_location is taken from the predefined location list |', `${REQUIRED}; off the globe is no real point; left out, the deployment's choice (the list is not shown)`, { untestable: 'when it is not required (a location from the predefined list) cannot be tried: the list is not shown', points: ['openJobValues'] }],
    ['server', '| job_longitude | number (double) | same rule as job_latitude |', `${REQUIRED}; past ±180 (a real meridian written past the antimeridian) or left out, the deployment's choice`, { points: ['openJobValues'] }],
    ['server', '| job_type | string | one of the job_type values |', REQUIRED],
    ['server', '| contract_type | string | one of the contract_type values |', REQUIRED],
    ['server', '| job_description | string | free text |', REQUIRED],
    ['server', '| contact_name | string | free text |', REQUIRED],
    ['server', '| contact_email | string | e-mail address |', REQUIRED],
    ['server', '| salary_visible | string | free text shown to candidates |', REQUIRED],
    ['server', '| salary_precise | string | numeric text |', REQUIRED],
    ['server', '| salary_unit | string | one of the salary_unit values |', REQUIRED],
    ['server', '| salary_currency | string | one of the salary_currencies values |', REQUIRED],
    ['server', '| require_cv | integer | 1 or 0 |', REQUIRED],
    ['server', 'Other fields that the add operation accepts:', 'request: job/add accepts each of the optional fields below, and a job without them; a field of no list is a silence', { points: ['unknownJobFields'] }],
    ['server', '| available_from | string | format `YYYY-MM-DD H:i` |', OPTIONAL],
    ['server', '| closing_date | string | same shape as available_from |', OPTIONAL],
    ['server', '| close_automatically | integer | 1 or 0 |', OPTIONAL],
    ['server', '| expiry_date | string | same shape as available_from |', OPTIONAL],
    ['server', '| hot | integer | 1 or 0 |', OPTIONAL],
    ['server', '| internal | integer | 1 or 0 |', OPTIONAL],
    ['server', '| keywords | string | comma-separated list |', `${OPTIONAL}; an empty item, the deployment's choice`, { points: ['openJobValues'] }],
    ['server', '| job_hours | string | free text |', OPTIONAL],
    ['server', '| job_duration | string | free text |', OPTIONAL],
    ['server', '| job_skills | string | free text |', OPTIONAL],
    ['server', '| job_benefits | array of string | free text items |', OPTIONAL],
    ['server', '| job_requirements | array of string | free text items |', OPTIONAL],
    ['server', '| job_responsibilities | array of string | free text items |', OPTIONAL],
    ['server', '| salary_benefits | string | free text |', OPTIONAL],
    ['server', '| application_url | string | URL of an external application page |', OPTIONAL],
    ['silence', 'Format of closing_date and expiry_date: not shown beyond the shape of the sample, which matches available_from.', 'the date form beyond the sample: a date in another form, accepted or refused (job/add and repost)', { points: ['openJobValues'] }],
    ['silence', 'The fields of a job record as returned by any read operation: not shown.', 'no read operation gives a job: nothing to record', { points: [] }],
    ['server', 'The names of the fields other than those listed as required are those of the add payload; any field not in a constrained list is free text.', 'request: job/add accepts any text in a field with no constrained list'],
    ['server', 'Constrained values (values may change over time; the job/fields endpoint returns the current ones):', 'answer: job/fields gives the current lists; job/add takes their values'],
    ['server', 'job_industry: `Veterinary Surgeon`, `Veterinary Surgeon/Small Animal Vet Surgeon`, `Veterinary Surgeon/Mixed Animal Vet Surgeon`, `Veterinary Surgeon/Equine Vet Surgeon`, `Veterinary Surgeon/Night Vet Surgeon`, `Veterinary Surgeon/Head Vet Surgeon`, `Veterinary Surgeon/Veterinary Clinical Director`, `Registered Veterinary Nurse`, `Registered Veterinary Nurse/Small Animal RVN`, `Registered Veterinary Nurse/Night RVN`, `Registered Veterinary Nurse/Head Veterinary Nurse`, `Veterinary Admin / Other`, `Veterinary Admin / Other/Veterinary Receptionist`, `Veterinary Admin / Other/Vet Care Assistant`, `Veterinary Admin / Other/Veterinary Practice Manager`.', 'request: job/add accepts each listed job_industry and refuses others; job/fields lists them'],
    ['description', 'A slash separates sector from sub-sector.', 'how a job_industry value is written'],
    ['server', 'Either the sector alone or `<Sector>/<Sub_sector>` is accepted, and the service splits it.', 'request: job/add accepts both forms of job_industry'],
    ['server', 'job_type: `Full time`, `Part time`, `Night time`.', 'request: job/add accepts each listed value and refuses others'],
    ['server', 'contract_type: `Permanent`, `Locum`, `Contract`, `Maternity cover`, `Temporary`.', 'request: job/add accepts each listed value and refuses others'],
    ['server', 'salary_unit: `Per hour`, `Per year`, `Per week`, `Per month`.', 'request: job/add accepts each listed value and refuses others'],
    ['server', 'salary_currencies (values for salary_currency): `GBP`.', 'request: job/add accepts each listed value and refuses others'],
    ['server', 'job_telecommute: `yes`, `no`.', 'request: job/add accepts each listed value and refuses others'],
  ]),
  ...under('Resources and their fields › Candidate', [
    ['server', 'Returned by candidates/list and candidates/details/{id}.', 'answer: both give candidates of this table; fields beyond it are a silence', { points: ['extraFields'] }],
    ['server', '| id | integer |', FIELD('a field of a candidate')],
    ['server', '| identifier | string (opaque) |', FIELD('a field of a candidate')],
    ['server', '| email, signup_email | string (e-mail) |', FIELD('fields of a candidate')],
    ['server', '| name, telephone | string |', FIELD('fields of a candidate')],
    ['server', '| address, city, county, country, postcode | string (may be empty) |', FIELD('fields of a candidate')],
    ['server', '| last_login, created_at, updated_at | string timestamp |', FIELD('fields of a candidate')],
    ['server', '| marketing_opted_in | integer (1 or 0) |', FIELD('a field of a candidate')],
    ['server', '| hot, featured | integer (1 or 0) |', FIELD('fields of a candidate')],
    ['server', '| job_title, current_employer | string |', FIELD('fields of a candidate')],
    ['server', '| current_salary, preferred_salary | string (free range text) |', FIELD('fields of a candidate')],
    ['server', '| seeking, notice_period, cover_letter, overview | string |', FIELD('fields of a candidate')],
    ['server', '| work_eligible | string (numeric text of 0 or 1) |', FIELD('a field of a candidate')],
    ['server', '| preferred_job_titles, sectors, disciplines, employment_types, contract_types, expertise, locations | array of string |', FIELD('fields of a candidate')],
    ['server', '| sector_disciplines | array of string; a discipline is written `<Sector>::<Discipline>`, a sector without discipline is written alone |', FIELD('a field of a candidate, and its form')],
    ['server', '| available_from | string `YYYY-MM-DD` |', FIELD('a field of a candidate')],
    ['server', '| available_from_year, available_from_day, available_from_month | string (year, day number, month name) |', FIELD('fields of a candidate, telling available_from'), { points: ['monthNames'] }],
    ['server', '| available_from_hr | string (human readable date) |', FIELD('a field of a candidate'), { untestable: '"human readable" has no form to hold a date to: only its type is checked' }],
    ['server', '| experience, specialisms, qualifications, skills | string (skills and experience are comma-separated lists) |', FIELD('fields of a candidate')],
    ['server', '| latitude, longitude | string (may be empty) |', FIELD('fields of a candidate')],
    ['server', '| timesheets, resumes, documents | array of File entry |', FIELD("a candidate's file lists")],
    ['server', '| applications | array of Candidate application entry |', FIELD("a candidate's applications")],
    ['server', '| consent | array of Consent entry |', FIELD("a candidate's consent")],
    ['server', 'File entry: `filename` string; `href` string URL of the download endpoint for that file; `filesize` string of bytes; `created_at` string timestamp.', FIELD('the fields of a file entry; its href downloads it')],
    ['server', 'Candidate application entry: `job` object (`id` integer, `title` string, `reference` string, `location` string); `href` string URL of applications/details/{id}; `application_date` string timestamp.', FIELD("the fields of a candidate's application entry; its href resolves")],
    ['server', 'Consent entry: `type` string; `value` string (`Revoked` appears); `date` string timestamp; `ip_address` string.', FIELD('the fields of a consent entry')],
    ['silence', 'Allowed values of seeking, notice_period and consent type and value: not shown beyond the values seen above.', 'any string: what comes is observed (drift)', { points: ['marketingApprovalAction'] }],
  ]),
  ...under('Resources and their fields › Application', [
    ['server', '| id | integer |', FIELD('a field of an application')],
    ['server', '| href | string URL of applications/details/{id} (in list items) |', FIELD("a list item's link to its own details")],
    ['server', '| created_at, updated_at | string timestamp |', FIELD('fields of an application')],
    ['server', '| applicant | object: `name`, `email`, `telephone`, `cover_letter` (strings) and `attachment` |', FIELD("an application's applicant, who may be no listed candidate"), { points: ['guestApplicants'] }],
    ['server', '| applicant.attachment | object: `href` (URL of applications/attachment/{id}), `filename` (string) |', FIELD("an applicant's attachment; its href downloads it")],
    ['server', '| vacancy | object: `id` integer; `title`, `location`, `salary`, `reference` strings (salary is display text with currency symbol and unit) |', FIELD("an application's vacancy; its salary shows a symbol and unit")],
  ]),
  ...under('Resources and their fields › Timesheet list entry', [
    ['server', '| id | integer |', FIELD('a field of a timesheet entry')],
    ['server', '| attachment | object: `href` (URL of the timesheet download), `filename` string, `filesize` integer bytes |', FIELD("a timesheet entry's attachment; its href downloads it")],
    ['server', '| created_at | string timestamp |', FIELD('a field of a timesheet entry')],
    ['server', '| candidate | object: `id` integer, `name` string, `email` string, `href` URL of candidates/details/{id} |', FIELD("a timesheet entry's candidate; its href resolves")],
  ]),
  ...under('Resources and their fields › Marketing record', [
    ['server', '| candidate | object: `email` string, `id` integer, `ip_address` string |', FIELD("a marketing record's candidate")],
    ['server', '| action | string; `Revoked` appears |', FIELD("a marketing record's action")],
    ['server', '| created_at | string timestamp |', FIELD('a field of a marketing record')],
    ['description', 'The candidate id is 0 for records with no matching candidate account in the sample.', 'what the sample held; the next sentence leaves its meaning open'],
    ['silence', 'The meaning of 0 is not shown.', 'a candidate id 0 is legal and means what the deployment says', { points: [] }],
    ['silence', 'The action value for an approval: not shown.', 'the approval word', { points: ['marketingApprovalAction'] }],
  ]),
  ...under('Resources and their fields › Metric', [
    ['server', '| label | string |', FIELD('a field of a metric')],
    ['server', '| total | integer |', FIELD('a field of a metric')],
    ['server', '| aggregations | array of objects: `year` string, `month` string (month name), `total` integer |', FIELD("a metric's months"), { points: ['monthNames'] }],
    ['server', 'Labels returned: `Jobs created`, `Job searches`, `Client enquiries`, `Registrations`, `Applications`, `Timesheets`, `Consent opt-ins`, `Consent opt-outs`, `Job submissions`, `Candidate interest`.', 'answer: each of the ten labels once', { points: ['extraMetricLabels'] }],
    ['server', 'Aggregations are ordered newest month first.', 'answer: order of the months within a metric'],
    ['server', 'Months with no activity are included with total 0.', 'answer: no month missing between the first and the last'],
    ['client', 'The number of months per metric differs.', 'clients take each metric with the months it has', { kit: 'the kit reads each metric with the months it has, whatever their number' }],
  ]),
  ...under('States and transitions', [
    ['description', 'A job moves through these states by operations:', 'introduces the table'],
    ['server', '| job/add | Job is created and gets an id; it is published or not according to `published`. |', 'answer: the new id; its public page per published'],
    ['server', '| job/close | Job is marked unpublished; its public page then answers 404. |', 'answer: the public page 404 after close'],
    ['server', '| job/expire | Job is marked as no longer accepting applications. |', 'an effect on applications', { untestable: 'applications are not made through the API: the effect is not visible from outside' }],
    ['server', '| job/repost | Job is reposted with new closing and expiry dates one month later. The request may carry `closing_date`. |', 'request: repost with and without closing_date; effect: new dates', { untestable: 'the new dates cannot be read back: job records are not shown' }],
    ['server', '| job/delete | Job is removed from the system permanently. |', 'answer: page gone, operations on it refused'],
    ['silence', 'The states that each operation may be applied from, and the error when an operation does not fit the current state: not shown.', 'refusals after delete are observed (error-body)', { points: [] }],
    ['silence', 'States and transitions of candidates, applications, timesheets and marketing records: not shown.', 'nothing to call: the API writes jobs only', { points: [] }],
  ]),
  ...under('Endpoints', [
    ['server', 'Every path below begins with {base_url}/api/v1.', 'request: every endpoint answers under /api/v1'],
    ['server', 'Every operation requires authentication (see Authentication).', 'request: refused without (or with wrong) credentials'],
    ['client', 'POST bodies must be JSON with header `Content-Type: application/json`.', 'how clients send a POST', { verdict: ['post-json'], kit: 'the kit sends every POST as JSON with that Content-Type' }],
    ['server', 'A content-type header on GET requests is ignored.', 'request: a GET with a Content-Type is answered as without'],
    ['server', 'Every JSON response carries `status` (integer).', 'answer: the envelope of every JSON answer'],
    ['server', 'List and detail responses also carry `total` (integer) and `data` (array).', 'answer: the envelope of lists and details'],
  ]),
  ...under('Endpoints › Jobs', [
    ['server', '| POST | /job/add | JSON job object (see Job) | On success `status` 200, `message` string holding the public job page URL, `id` integer. On failure `status` 412 and `message` naming the invalid field, e.g. a phrase saying the salary unit is invalid. |', 'answer: 200 with the page URL and id; 412 naming the field'],
    ['server', '| POST | /job/delete | `{id: integer}` | `status` 200, `message` text saying the job has been deleted |', 'request and answer of delete'],
    ['server', '| POST | /job/close | body of close: not shown | `status` 200, `message` text saying the job has been closed (unpublished) |', 'answer of close; its body is a silence', { points: ['closeExpireIdField'] }],
    ['server', '| POST | /job/expire | body of expire: not shown | `status` 200, `message` text saying the job has been expired |', 'answer of expire; its body is a silence', { points: ['closeExpireIdField'] }],
    ['server', '| POST | /job/repost | `{id: integer, closing_date: string}` in the form of the date fields | `status` 200, `message` text saying the job has been reposted |', 'request and answer of repost'],
    ['server', '| GET | /job/fields | none | the current values of the constrained job fields; response shape: not shown |', 'answer: every constrained list; its shape is a silence', { points: ['jobFieldsShape'] }],
  ]),
  ...under('Endpoints › Candidates', [
    ['server', '| GET | /candidates/list | optional query `since`, format `YYYY-MM-DD HH:MM` (a space is sent as +) | `status`, `total`, `data` array of Candidate |', 'request with and without since; answer: the list envelope', { points: ['sinceField', 'malformedSince', 'listOrder'] }],
    ['server', '| GET | /candidates/details/{id} | path `id`, integer candidate id | `status`, `total`, `data` array of one Candidate |', 'answer: the one candidate asked for'],
    ['server', "| GET | /candidates/timesheet/{id} | path `id` of a timesheet taken from a candidate's timesheets | file download (see Downloads) |", DOWNLOAD, { points: ['timesheetContentType'], verdict: ['download-listed-ids'] }],
    ['server', "| GET | /candidates/resume/{id} | path `id` of a resume taken from a candidate's resumes | file download |", DOWNLOAD, { points: ['resumeContentType'] }],
    ['server', "| GET | /candidates/document/{id} | path `id` of a document taken from a candidate's documents | file download |", DOWNLOAD, { points: ['documentContentType'] }],
    ['silence', 'Paging links of the candidates list: not shown.', 'whether candidates are paged', { points: ['pageCandidates'] }],
  ]),
  ...under('Endpoints › Applications', [
    ['server', '| GET | /applications/list | optional query `since` (same format as above), optional `vacancy` (vacancy id, integer), optional `page` | `status`, `total`, `data` array of Application, `next_page` (URL string) |', 'request: each parameter alone and together; answer: the list envelope'],
    ['server', '| GET | /applications/details/{id} | path `id` integer | `status`, `total`, `data` array of one Application |', 'answer: the one application asked for'],
    ['server', '| GET | /applications/attachment/{id} | path `id` integer | file download |', DOWNLOAD],
    ['server', 'List entries are ordered newest first (highest id first).', 'answer: the order of applications, within and across pages', { points: ['listOrder'] }],
  ]),
  ...under('Endpoints › Timesheets', [
    ['server', '| GET | /timesheets/list | optional query `since`, optional `page` | `status`, `total`, `next_page` (URL string), `prev_page` (URL string, or false when there is none), `data` array of Timesheet list entry |', 'request with since and page; answer: the envelope, prev_page false on the first page'],
    ['server', '| GET | /candidates/timesheets/download/{id} | path `id` integer | file download |', DOWNLOAD, { points: ['timesheetContentType'] }],
    ['server', 'The list entries point their download links at /candidates/timesheet/{id}; both download paths are listed as timesheet downloads.', 'answer: where timesheet links point; both paths download', { verdict: ['download-listed-ids'] }],
  ]),
  ...under('Endpoints › Marketing', [
    ['server', '| GET | /marketing/list | optional query `since`, optional `page` | `status`, `total`, `data` array of Marketing record, `next_page` (URL string) |', 'request with since and page; answer: the list envelope'],
  ]),
  ...under('Endpoints › Metrics', [['server', '| GET | /metrics/list | none | `status`, `metrics` array of Metric |', 'answer: the metrics envelope']]),
  ...under('Endpoints › Paging', [
    ['server', 'Where a response carries `next_page`, it is a full URL of the next page of the same list, using the query parameter `page` (and `since` where given).', 'answer: next_page, and the list it continues; clients walk it to the last page', { points: ['lastPageNextPage'], verdict: ['walk-to-last-page'] }],
    ['silence', 'The page size: not shown.', 'records per page', { points: ['pageSize', 'outOfRangePage'] }],
  ]),
  ...under('Endpoints › Downloads', [
    ['server', 'A file download answers with the raw file.', 'answer: the bytes of the file, as many as said'],
    ['server', 'Headers: `Content-Type` (application/octet-stream for application attachments; a timesheet-specific octet-stream type for timesheets), `Content-Length` (bytes), `Content-Disposition: attachment` with `filename` set to the original file name, and `Content-Transfer-Encoding: binary`.', 'answer: the headers of each download kind', { points: ['timesheetContentType', 'resumeContentType', 'documentContentType'] }],
  ]),
  ...under('Authentication', [
    ['server', 'All endpoints use HTTP Basic authentication with the form `<username>:<password>`.', 'request: Basic credentials let in; none, wrong or another scheme refused', { points: ['authStatus', 'authChallenge', 'authBody'] }],
    ['description', "Credentials are created in the customer's control panel.", 'where credentials come from'],
    ['client', 'The credentials are sent with every request.', 'clients send Basic credentials on every request', { verdict: ['credentials'], kit: 'the kit sends them on every request but those trying their absence' }],
    ['server', 'No token exchange exists.', 'request: a token in place of Basic credentials is refused (there is no endpoint to get one)'],
  ]),
  ...under('Events', [['silence', 'Events, callbacks or webhooks: not shown.', 'nothing to call or to record', { points: [] }]]),
  ...under('Errors', [
    ['server', '| A posted field is invalid (for example an unlisted salary_unit) | JSON body with `status` 412 and `message` naming the problem |', 'answer: an invalid post is refused, 412 naming the field', { points: ['preconditionHttpStatus'] }],
    ['server', '| More than one request to the same endpoint within 15 minutes | HTTP 429 with header `Retry-after` holding the seconds to wait before retrying |', 'answer: 429 with Retry-after in seconds', { points: ['rateLimitWindow', 'rateLimitBody'] }],
    ['server', "| A closed (unpublished) job's public page is requested | 404 |", 'answer: the public page 404 after close'],
    ['server', 'On success the JSON body carries `status` 200.', 'answer: status 200 in every successful body'],
    ['silence', 'Error codes other than 412, 429 and 404: not shown.', 'the status, challenge and body of other refusals', { points: ['authStatus', 'authChallenge', 'authBody', 'errorHttpStatus', 'preconditionHttpStatus'] }],
    ['silence', 'Error bodies of the read endpoints and of missing ids: not shown.', 'what reads and unknown ids answer', { points: ['notFoundBody', 'malformedSince', 'envelopeKeys', 'outOfRangePage'] }],
  ]),
  ...under('Limits', [
    ['client', 'Each endpoint may be requested once per 15 minutes.', 'clients ask each full request once per window', { verdict: ['one-request-per-window', 'download-once'], kit: 'the kit makes each full request at most once per window and keeps windows across runs (--ledger)', points: ['rateLimitWindow', 'burstLimit', 'rateLimitCounts'] }],
    ['server', 'An endpoint is counted by full request: different paths count separately (for example a document download and a resume download), and different query values count separately (for example page=1 and page=2).', 'answer: a fresh full request is not limited by the 429 of another'],
    ['server', 'Exceeding the limit yields 429 with `Retry-after` in seconds.', 'answer: 429 with Retry-after in seconds', { verdict: ['retry-after'] }],
    ['silence', 'Maximum page size, payload size and field lengths: not shown.', 'the bounds a deployment keeps', { points: ['pageSize'] }],
  ]),
  ...under('Versioning', [
    ['server', 'The version is carried in the path prefix /api/v1.', 'answer: every link under /api/v1'],
    ['client', 'The sets of allowed values of constrained job fields can change as industries are added or removed; the job/fields endpoint gives the current values and clients should check it periodically.', 'clients read job/fields and send only current values', { verdict: ['current-job-fields', 'no-unchanged-resend'], kit: 'the kit reads job/fields first in every run and checks answers against its values' }],
    ['silence', 'Deprecation and compatibility policy for new versions: not shown.', 'nothing to call or to record', { points: [] }],
  ]),
]

/** Every statement of the index: the spec's, then those of the RFCs its words bring in (rfc-statements.ts). */
export const STATEMENT_INDEX: readonly IndexEntry[] = [...SPEC_INDEX, ...RFC_STATEMENTS.map((r): IndexEntry => ({ section: r.rfc, words: r.words, kind: r.kind, why: r.why, rfc: r.rfc, invokedBy: r.invokedBy, ...(r.untestable === undefined ? {} : { untestable: r.untestable }) }))]

/** The key of a statement: its section and its words. */
export const statementKey = (s: { section: string; words: string }) => `${s.section}\u0000${s.words}`

/** The entry of a statement, if the index has one. */
export function entryOf(s: { section: string; words: string }, index: readonly IndexEntry[] = STATEMENT_INDEX): IndexEntry | undefined {
  const key = statementKey(s)
  return index.find((e) => statementKey(e) === key)
}
