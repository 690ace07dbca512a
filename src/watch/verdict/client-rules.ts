// The catalogue of the rules a sync client must keep, each written once: a stable id,
// the sentence the verdict states, the spec line it rests on, what to do instead, and
// what traffic exercises it (a rule nothing exercised says `not-exercised`, never
// `pass`). The evaluator (evaluator.ts) checks them; docs/verdict.md's table is
// generated from this list (docs.ts), and a test keeps the two in step.

export interface Rule {
  /** Stable: CI files, tests and the docs name a rule by it. */
  readonly id: string
  /** The rule, as the verdict states it. */
  readonly sentence: string
  /** The spec's words it rests on, and where they are (docs/ reads the spec as /work/shared/spec/job-board-api.md). */
  readonly spec: string
  /** What a client breaking it should do instead. */
  readonly instead: string
  /** Which requests put the rule to the test. */
  readonly exercisedBy: string
}

export const RULES = [
  {
    id: 'credentials',
    sentence: 'Every API request carries HTTP Basic credentials.',
    spec: 'Authentication 3: "The credentials are sent with every request. No token exchange exists."',
    instead: 'Send `Authorization: Basic base64(user:password)` on every request, downloads and retries included.',
    exercisedBy: 'any request under /api/v1',
  },
  {
    id: 'post-json',
    sentence: 'Every POST is JSON, sent with `Content-Type: application/json`.',
    spec: 'Endpoints: "POST bodies must be JSON with header `Content-Type: application/json`."',
    instead: 'Serialize the body with JSON and set `Content-Type: application/json` (not a form, not text/plain).',
    exercisedBy: 'any POST under /api/v1',
  },
  {
    id: 'one-request-per-window',
    sentence: 'No full URL is requested again inside the limit window; a request answered 429 counts.',
    spec: 'Limits 1-2: "Each endpoint may be requested once per 15 minutes ... different query values count separately."',
    instead: 'Remember when each full URL (path and query) was last requested and wait out the window before asking it again.',
    exercisedBy: 'any request under /api/v1 while the limit is on',
  },
  {
    id: 'retry-after',
    sentence: 'After a 429, the same URL is not requested again before its Retry-after has passed.',
    spec: 'Errors: "HTTP 429 with header `Retry-after` holding the seconds to wait before retrying"; Limits 3.',
    instead: 'Read the Retry-after header of the 429 and wait at least that many seconds before retrying that URL.',
    exercisedBy: 'a URL requested again after it was answered 429',
  },
  {
    id: 'walk-to-last-page',
    sentence: 'Every list walk that starts reaches the last page (the page without `next_page`), page after page.',
    spec: 'Paging: "Where a response carries `next_page`, it is a full URL of the next page of the same list."',
    instead: 'Follow `next_page` until a page has none; after a 429 or an outage resume at the page that failed, in a later window.',
    exercisedBy: 'a first page of a list answered 200',
  },
  {
    id: 'since-no-gap',
    sentence:
      '`since` is well-formed (`YYYY-MM-DD HH:MM`, a space sent as `+`) and leaves no gap: it is not later than the start of the previous complete walk of that list, to the minute.',
    spec: 'Candidates: "optional query `since`, format `YYYY-MM-DD HH:MM` (a space is sent as +)"; What the service does: "keep a client\'s copy ... in step".',
    instead:
      'Take `since` from when your last complete walk began, rounded down to the minute: the time you asked its first page, or the newest change that first page returned. Never from the newest time the whole walk returned: a walk resumed after a 429 or an outage returns, on its later pages, changes made after it began. Overlap and de-duplicate by id, never skip ahead.',
    exercisedBy: 'a list request with `since`',
  },
  {
    id: 'current-job-fields',
    sentence: 'Job writes use the current constrained values: no 412 on a constrained field whose values changed since the client last read job/fields.',
    spec: 'Versioning: "the job/fields endpoint gives the current values and clients should check it periodically."',
    instead: 'Read job/fields before writing jobs (once per window is enough) and send only values it lists.',
    exercisedBy: 'a job/add request',
  },
  {
    id: 'no-unchanged-resend',
    sentence: 'A job write that was refused is not sent again unchanged.',
    spec: 'Errors: "A posted field is invalid ... `status` 412 and `message` naming the problem."',
    instead: 'Read the 412 message, fix the field it names (or drop the write), and only then send it again.',
    exercisedBy: 'a job write refused with a 4xx other than 401, 403 and 429',
  },
  {
    id: 'download-once',
    sentence: 'A file is not downloaded again while it is unchanged.',
    spec: 'Limits 2: "a document download and a resume download" count against the limit; What the service does: "not meant for real-time queries".',
    instead: 'Keep the files you downloaded by kind and id, and download only ids you have not got.',
    exercisedBy: 'a file download answered 200',
  },
  {
    id: 'download-listed-ids',
    sentence: 'Downloads use the ids the lists gave (no guessed ids).',
    spec: 'Candidates: "path `id` of a timesheet taken from a candidate\'s timesheets"; Timesheets: "The list entries point their download links at ...".',
    instead: 'Download through the `href` of a file entry or attachment a list or detail answer gave you.',
    exercisedBy: 'a file download',
  },
  {
    id: 'copy-in-step',
    sentence:
      "The client's copy of each list it handed to POST /__mock/verdict/copy holds every record the board held when its most recent complete walk of that list began, none that the board never held, and none older than that.",
    spec: 'What the service does: "It is meant to keep a client\'s copy of the board\'s data in step with the board."',
    instead: 'Walk every page, replace records by id when their updated_at is newer, and take `since` so that no change falls between two walks.',
    exercisedBy: 'a copy handed to POST /__mock/verdict/copy',
  },
] as const satisfies readonly Rule[]

export type RuleId = (typeof RULES)[number]['id']

export const RULE_IDS: readonly RuleId[] = RULES.map((rule) => rule.id)

export const ruleById = (id: RuleId): Rule => RULES.find((rule) => rule.id === id) as Rule
