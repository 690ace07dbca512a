// A second server of the Recruitment Job Board Data API, written from
// ../shared/spec/job-board-api.md alone (no import from src/ or schemas/), so that the
// tools that read a deployment (the contract kit, the profile, the recorder) are tried on
// a deployment that does not share the fake's reading of the spec. Plain node:http.
//
// startOtherBoard({ style, username, password, basePath, ... }) → { url, close(), counts(), arrive() }
//
// Where the spec leaves room, it chooses otherwise than the fake (docs/behaviour.md), and
// its two styles otherwise than each other. Every choice is legal; the spec's words:
// - Page size 7 (a) or 9 (b) on every list, candidates included: "The page size: not shown";
//   "Paging links of the candidates list: not shown".
// - Ids start high and leave gaps (a: candidates from 48213, b: from 1000003): the spec types
//   ids as "integer" and says nothing of their range.
// - next_page: a: `?page=2&since=2026-11-20%2009:30&vacancy=…` (page first, %20 for the
//   space, a raw colon); b: `?vacancy=…&since=2026-11-20+09%3A30&page=2`, and no page
//   parameter for page 1 (prev_page of page 2). "it is a full URL of the next page of the
//   same list, using the query parameter page (and since where given)": the order and the
//   encoding of a URL's query are the URL's own.
// - The last page: next_page absent (a) or false (b), as prev_page is "false when there is none".
//   The option `lastPageNextPage: ''` gives the empty string instead: a "URL string" with
//   no URL in it, whose legality the spec leaves open (no style uses it by default).
// - Keys: a sorts every object's keys; b writes the spec's order. JSON objects are unordered.
// - a prints JSON as PHP's json_encode does by default: `\/` for `/` and `\uXXXX` for
//   what is not ASCII (both are JSON's own escapes, RFC 8259 §7); b prints UTF-8 as is, and
//   sends its JSON chunked, without Content-Length (RFC 9112 §6.1: the spec names
//   Content-Length for downloads only).
// - Fields beyond the spec's: `channel` on applications (a), `profile_completeness` on
//   candidates (b). The spec lists the fields a record has, not that it has no others.
// - A 412 is HTTP 412 (a) or HTTP 200 with `status: 412` in the body (b): "On failure
//   `status` 412 and `message` naming the invalid field" is about the JSON body. b names
//   the field in words, as the spec's own example does: "a phrase saying the salary unit
//   is invalid" (`The salary unit is invalid.`).
// - A candidate's sector_disciplines may name a sector not in its `sectors` (a): the spec
//   defines how a discipline is written, and never ties the two fields.
// - Style b's account holds no marketing record at all (`total` 0): nothing in the spec
//   says an account has one.
// - Guest applicants (a share of applications in both styles): the Application carries
//   its applicant's name, e-mail, telephone and cover letter itself; the spec never says
//   the applicant is a listed candidate.
// - since compares updated_at for candidates and applications (a) or created_at (b);
//   a malformed since is a 412 (a) or ignored (b); a page past the last is an empty page (a)
//   or 404 (b); an unknown id is HTTP 404 JSON in both, in other words. "Error bodies of
//   the read endpoints and of missing ids: not shown".
// - Marketing approvals are `Granted` ("The action value for an approval: not shown");
//   consent entries have type `Email marketing`; style b writes month names short (`Nov`);
//   style a writes available_from_day with a leading zero (`07`, PHP's date('d')): a
//   "day number" either way.
// - Metrics: the ten labels, counted from the board where it holds the events, in the
//   spec's order (a) or reversed with an eleventh label of its own (b: "Labels returned"
//   lists what comes, not that nothing else may); newest month first, empty months at 0,
//   a different number of months per metric.
// - The rate limit: each full request (method, path and query as sent) once per window,
//   900 s by default ("Each endpoint may be requested once per 15 minutes"), 429 with
//   `Retry-after` (a) / `Retry-After` (b) in whole seconds; `rateLimitWindow: 0` turns it off.
// - Downloads: Content-Type application/octet-stream for attachments; for timesheets
//   `application/vnd.timesheet.octet-stream` (a) or `application/timesheet-octet-stream` (b)
//   ("a timesheet-specific octet-stream type"); resumes and documents `application/pdf` (a)
//   or octet-stream (b) (not shown). Content-Disposition per RFC 6266: a quoted filename
//   with an RFC 5987 `filename*` where the name is not ASCII (a), a bare token after
//   `Attachment` (b: the disposition type is case-insensitive, RFC 6266 §4.2).
//   Content-Transfer-Encoding `binary` (a) or `Binary` (b: RFC 2045 §6.1, case-insensitive);
//   Content-Length. Style b's attachments are `application/octet-stream; charset=binary`
//   (PHP's finfo: the spec's type, with a parameter) and its JSON `application/json;charset=UTF-8`.
// - Timesheet ids: style b gives a timesheet's file its own id (the record's id + 400000):
//   `/candidates/timesheet/{file id}` (the href in timesheets/list and in a candidate's
//   timesheets) and `/candidates/timesheets/download/{record id}`. The spec gives the first
//   path "id of a timesheet taken from a candidate's timesheets" and the second only
//   "path id integer"; style a uses one id for both.
// - Jobs: public pages at `{base}/job/{id}` (a) or `{base}/vacancies/{id}/{slug}` (b), 404
//   once closed ("its public page then answers 404") or deleted, and for a job added with
//   published 0; job/add's message is the URL (a) or a sentence holding it (b); messages
//   say deleted / closed (unpublished) / expired / reposted in each style's words; close
//   and expire take `{id}` (b also `{job_id}`: "body of close: not shown"); an unknown
//   or deleted job is HTTP 404 (a) or HTTP 200 with status 404 (b); fields add does not
//   list are dropped, not refused. job/fields: `{status, data: {lists}}` (a) or the
//   lists beside status (b) ("response shape: not shown").
// - A live board (`live: N`): a record arrives (a candidate, a guest application, a
//   timesheet, a marketing record, in turn) before every N-th authenticated request,
//   with a higher id and a newer timestamp, as a staging board receives records while a
//   tool reads it.
// Deterministic: a seeded generator of its own, and the board's time from `now` (it moves
// only when a record arrives); the rate limit's windows run on a monotonic clock
// (process.hrtime, or the `elapsed` option a test drives).
export { startOtherBoard, type OtherBoard, type OtherBoardOptions } from './other-board/server.js'
