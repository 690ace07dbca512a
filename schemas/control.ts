// The control API's own bodies and answers (/__mock): JSON in and out, validated like
// the API's. The records added through it use the seed schemas (schemas/seeds.ts).
import type { JSONSchema } from 'json-schema-to-ts'
import { timestamp } from './common.js'
import { STATE_FORMS } from './values.js'

export const resetBody = {
  type: 'object',
  additionalProperties: false,
  properties: {
    scenario: { type: 'string', minLength: 1, description: 'Another scenario, by name or path' },
    seed: { type: 'integer', minimum: 0, maximum: 4294967295 },
  },
} as const satisfies JSONSchema

/** What reset() takes in-process: the scenario as a name, a path or an object. */
export const resetOptions = {
  type: 'object',
  additionalProperties: false,
  properties: {
    scenario: { anyOf: [resetBody.properties.scenario, { type: 'object' }] },
    seed: resetBody.properties.seed,
  },
} as const satisfies JSONSchema

/** The journal's filter (GET /__mock/requests?path=). */
export const journalQuery = {
  type: 'object',
  properties: { path: { type: 'string', pattern: '^/', maxLength: 16384 } },
} as const satisfies JSONSchema

/** What GET /__mock/state takes: credentials are left out unless asked for (with the control token). */
export const stateQuery = {
  type: 'object',
  properties: {
    credentials: { type: 'boolean', default: false, description: 'Include the API credentials (needs the control token)' },
    form: { type: 'string', enum: STATE_FORMS, default: 'full', description: 'full: every record; compact: only what differs from the board the scenario and seed generate' },
  },
} as const satisfies JSONSchema

export const advanceBody = {
  type: 'object',
  additionalProperties: false,
  required: ['seconds'],
  properties: { seconds: { type: 'number', minimum: -315360000, maximum: 315360000 } },
} as const satisfies JSONSchema

export const setClockBody = {
  type: 'object',
  additionalProperties: false,
  required: ['now'],
  properties: { now: timestamp },
} as const satisfies JSONSchema

export const clockAnswer = {
  type: 'object',
  additionalProperties: false,
  required: ['status', 'now', 'mode'],
  properties: { status: { type: 'integer', const: 200 }, now: timestamp, mode: { type: 'string', enum: ['real', 'virtual'] } },
} as const satisfies JSONSchema

/**
 * Header names are HTTP tokens; values are what Node may send as a header value: tab,
 * visible ASCII, space and Latin-1 (no line breaks, NUL, DEL or `€`), so a fault cannot
 * break the response it makes. Headers that frame the message (content-length,
 * transfer-encoding, connection, ...) are refused by the controller.
 */
const headerMap = {
  type: 'object',
  maxProperties: 50,
  propertyNames: { pattern: "^[!#$%&'*+.^_`|~0-9A-Za-z-]+$", maxLength: 200 },
  additionalProperties: { type: 'string', maxLength: 8192, pattern: '^[\\t\\x20-\\x7e\\x80-\\xff]*$' },
} as const

/** A fault: the next `times` requests matching method and path get it. */
export const faultBody = {
  type: 'object',
  additionalProperties: false,
  required: ['path'],
  properties: {
    method: { type: 'string', pattern: '^[A-Za-z]+$', maxLength: 20, description: 'Any method when left out' },
    path: {
      type: 'string',
      pattern: '^/',
      maxLength: 16384,
      description: 'The path without query string; a trailing * matches any rest (/api/v1/candidates/*)',
    },
    status: { type: 'integer', minimum: 200, maximum: 599, description: 'Answer with this status instead (1xx would leave the client waiting)' },
    body: { description: 'The body of that answer: JSON, or a string sent as is' },
    headers: headerMap,
    delayMs: { type: 'integer', minimum: 0, maximum: 600000, description: 'Wait this long before answering' },
    drop: { type: 'boolean', description: 'Close the connection without an answer' },
    truncate: { type: 'boolean', description: 'Send the real answer, cut off halfway through its body' },
    times: { type: 'integer', minimum: 1, maximum: 1000000, default: 1 },
  },
} as const satisfies JSONSchema

/** Values of one constrained list named in a job-fields change: distinct, non-empty, one line each. */
const fieldValueNames = {
  type: 'array',
  minItems: 1,
  maxItems: 1000,
  uniqueItems: true,
  items: { type: 'string', minLength: 1, maxLength: 200, pattern: '^[^\\u0000-\\u001f\\u007f]+$' },
} as const

/** Values by the name job/fields gives each list (salary_currencies, not salary_currency). */
const fieldValueLists = {
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  properties: {
    job_industry: fieldValueNames,
    job_type: fieldValueNames,
    contract_type: fieldValueNames,
    salary_unit: fieldValueNames,
    salary_currencies: fieldValueNames,
    job_telecommute: fieldValueNames,
  },
} as const

/**
 * POST /__mock/job-fields (and an activity's job-fields event): values job/fields stops
 * listing, and values it lists from now on. Records that hold a retired value keep it.
 */
export const jobFieldsChange = {
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  properties: {
    retire: { ...fieldValueLists, description: 'Values to take off each list: job/add refuses them from now on' },
    add: { ...fieldValueLists, description: 'Values to append to each list' },
  },
} as const satisfies JSONSchema

export const journalEntry = {
  type: 'object',
  additionalProperties: false,
  required: ['method', 'url', 'status', 'time', 'user'],
  properties: {
    id: { type: 'integer', minimum: 1, description: 'The number of the entry since the journal was last emptied: what verdict findings name' },
    method: { type: 'string' },
    url: { type: 'string', description: 'The path and query string as sent' },
    status: { type: 'integer', description: 'The status answered; 0 when none was sent' },
    time: timestamp,
    user: {
      type: 'string',
      description: "The API user the request authenticated as, else the user name its Basic credentials gave (a request answered by a fault keeps it); '' when it sent none",
    },
    fault: { type: 'string', description: 'What the fake did instead of answering normally, if anything' },
    contentType: { type: 'string', description: 'The Content-Type a POST was sent with' },
    retryAfter: { type: 'integer', description: 'The Retry-after (seconds) of a 429' },
    digest: { type: 'string', description: 'A digest of the JSON body of a job write: two writes with one digest sent the same body' },
    nextPage: { type: 'boolean', description: 'A list page: whether it gave a next_page URL' },
  },
} as const satisfies JSONSchema

/** A body as GET /__mock/requests/{id} shows it: its text capped, or what it was instead of its bytes. */
export const journalBody = {
  type: 'object',
  additionalProperties: false,
  required: ['kind'],
  properties: {
    kind: {
      type: 'string',
      enum: ['none', 'text', 'binary', 'unread', 'dropped'],
      description:
        'none: no body; text: its text (UTF-8), capped; binary: not text, its size and type only; unread: the fake answered without reading it, or sent it as a stream; dropped: the journal no longer holds it',
    },
    bytes: { type: 'integer', minimum: 0, description: 'Its size in bytes, when known' },
    contentType: { type: 'string', description: 'Its Content-Type, when it had one' },
    text: { type: 'string', description: 'The body as text, its first 65,536 bytes at most' },
    omittedBytes: { type: 'integer', minimum: 1, description: 'Bytes of the body left out after the text' },
    note: { type: 'string', description: 'In words: what is shown instead of the body, or where it was cut' },
  },
} as const satisfies JSONSchema

/** Headers as shown: names in lower case, every credential-bearing value "[redacted]". */
const shownHeaders = { type: 'object', additionalProperties: { type: 'string' } } as const

/** One journal entry with its request and its answer (GET /__mock/requests/{id}). */
export const journalEntryDetail = {
  type: 'object',
  additionalProperties: false,
  required: [...journalEntry.required, 'id', 'request', 'answer'],
  properties: {
    ...journalEntry.properties,
    request: {
      type: 'object',
      additionalProperties: false,
      required: ['method', 'url', 'body'],
      properties: {
        method: { type: 'string' },
        url: { type: 'string' },
        headers: { ...shownHeaders, description: 'The headers as sent (absent once dropped); Authorization, Cookie and the like are "[redacted]"' },
        body: journalBody,
      },
    },
    answer: {
      type: 'object',
      additionalProperties: false,
      required: ['status', 'body'],
      properties: {
        status: { type: 'integer', description: 'The status answered; 0 when none was sent' },
        headers: { ...shownHeaders, description: 'The headers answered (absent once dropped, or when none were sent)' },
        body: journalBody,
      },
    },
    dropped: { type: 'string', description: 'What the journal no longer holds of this request, and why' },
  },
} as const satisfies JSONSchema

/** GET /__mock/requests/{id}. */
export const journalEntryAnswer = {
  type: 'object',
  additionalProperties: false,
  required: ['status', 'entry'],
  properties: { status: { type: 'integer', const: 200 }, entry: journalEntryDetail },
} as const satisfies JSONSchema

/** The verdict's filter (GET /__mock/verdict?user=): one credential's requests. */
export const verdictQuery = {
  type: 'object',
  properties: { user: { type: 'string', maxLength: 256, description: "Judge only this API user's requests" } },
} as const satisfies JSONSchema

const journalIds = { type: 'array', items: { type: 'integer', minimum: 1 }, description: 'Journal ids of the requests concerned (GET /__mock/requests)' } as const

/** GET /__mock/verdict: each rule of the catalogue (src/watch/verdict/client-rules.ts, docs/verdict.md) and its findings. */
export const verdictAnswer = {
  type: 'object',
  additionalProperties: false,
  required: ['status', 'outcome', 'rules'],
  properties: {
    status: { type: 'integer', const: 200 },
    outcome: { type: 'string', enum: ['pass', 'fail'], description: 'fail when any rule fails' },
    rules: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['id', 'outcome', 'findings'],
        properties: {
          id: { type: 'string' },
          outcome: { type: 'string', enum: ['pass', 'fail', 'not-exercised'] },
          findings: {
            type: 'array',
            items: {
              type: 'object',
              additionalProperties: false,
              required: ['message', 'requests'],
              properties: { message: { type: 'string' }, requests: journalIds },
            },
          },
        },
      },
    },
  },
} as const satisfies JSONSchema

/** The entries of a client's copy that the oracle reads: a record, or only its id and update time. */
const copyItem = {
  type: 'object',
  required: ['id'],
  properties: {
    id: { type: 'integer', minimum: 1, maximum: 4294967295 },
    updated_at: timestamp,
    created_at: timestamp,
  },
} as const

/** Marketing records have no id: one is known by its time, action and e-mail. */
const marketingCopyItem = {
  type: 'object',
  required: ['candidate', 'action', 'created_at'],
  properties: {
    candidate: { type: 'object', required: ['email'], properties: { email: { type: 'string', maxLength: 320 } } },
    action: { type: 'string', maxLength: 100 },
    created_at: timestamp,
  },
} as const

/** Entries a copy may hold per list. */
export const MAX_COPY_ITEMS = 200_000

/** POST /__mock/verdict/copy: the client's copy of one or more lists. */
export const copyBody = {
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  properties: {
    applications: { type: 'array', maxItems: MAX_COPY_ITEMS, items: copyItem },
    candidates: { type: 'array', maxItems: MAX_COPY_ITEMS, items: copyItem },
    timesheets: { type: 'array', maxItems: MAX_COPY_ITEMS, items: copyItem },
    marketing: { type: 'array', maxItems: MAX_COPY_ITEMS, items: marketingCopyItem },
  },
} as const satisfies JSONSchema

/** The copy check of one list: ids (marketing: `created_at action email`), at most MAX_COPY_IDS each. */
const copyIds = { type: 'array', items: { type: ['integer', 'string'] } } as const

export const copyListAnswer = {
  type: 'object',
  additionalProperties: false,
  required: ['missing', 'extra', 'stale', 'walkStarted'],
  properties: {
    missing: { ...copyIds, description: 'Records the board held when the walk began that the copy lacks' },
    extra: { ...copyIds, description: 'Records in the copy the board does not hold' },
    stale: { ...copyIds, description: 'Records whose updated_at in the copy is older than the one the board held when the walk began' },
    walkStarted: {
      anyOf: [timestamp, { type: 'null' }],
      description: "When the client's most recent complete walk of the list began (the board is judged as it stood then); null: no complete walk, judged as it stands now",
    },
  },
} as const satisfies JSONSchema

export const copyAnswer = {
  type: 'object',
  additionalProperties: false,
  required: ['status', 'outcome', 'lists'],
  properties: {
    status: { type: 'integer', const: 200 },
    // not-exercised: a proxy's copy check where no record of the copy passed through it (the fake's board judges every copy)
    outcome: { type: 'string', enum: ['pass', 'fail', 'not-exercised'] },
    lists: {
      type: 'object',
      additionalProperties: false,
      properties: { applications: copyListAnswer, candidates: copyListAnswer, timesheets: copyListAnswer, marketing: copyListAnswer },
    },
  },
} as const satisfies JSONSchema
