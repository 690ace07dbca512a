// One journal entry with its request and its answer, as GET /__mock/requests/{id} and the
// page of /__mock/ui show it. The journal holds references (journal.ts, Detail); they
// are read and formatted here, only when someone asks, never per request.
//
// Credentials: a header that carries one (Authorization, Proxy-Authorization, Cookie,
// Set-Cookie, and any whose name speaks of a token, key, secret, password, session or
// credential) is shown as "[redacted]", an Authorization header's scheme kept ("Basic
// [redacted]": which kind the client sent is worth seeing). In the URL and the bodies,
// the forms that can only be the credentials the request sent are cut wherever they
// stand: the `user:password` pair, its base64 (padded, unpadded, URL-safe), the header's
// token as sent. The password alone is not searched for: a one-letter password is in
// every word, and a URL that happens to hold it is still the URL the client asked for;
// the password's own place, the Authorization header, never shows.
//
// Bodies: text is shown up to BODY_SHOWN bytes, then the number of bytes left out; a
// body that is not text (a type that is not, or bytes that are not valid UTF-8) as
// "binary, N bytes, content-type X"; a body the journal let go as dropped, saying why.
import type { IncomingHttpHeaders } from 'node:http'
import { Buffer } from 'node:buffer'
import { formatTimestamp } from '../core/time.js'
import type { JournalBody, JournalEntryDetail } from '../core/types.js'
import { type AnswerHeaders, type Detail, TEXT_TYPE } from './exchange.js'
import type { HeldEntry, Journal } from './journal.js'

/** Bytes of a body's text shown at most: 64 KiB. */
export const BODY_SHOWN = 64 * 1024

export const REDACTED = '[redacted]'

/** Headers whose value is a credential whatever it holds. */
const SECRET_HEADER = /^(authorization|proxy-authorization|cookie|set-cookie)$|token|secret|passw|api-?key|session|credential/i
/** An Authorization value's scheme (`Basic`, `Bearer`), which is no secret. */
const SCHEME = /^([A-Za-z][A-Za-z0-9!#$%&'*+.^_`|~-]{0,19})\s+(\S+)/

/** 12345 → "12,345". */
const count = (n: number) => n.toLocaleString('en-US')

/** The forms of the request's own credentials that can only be them, longest first. */
function secretForms(authorization: string | string[] | undefined): string[] {
  const header = Array.isArray(authorization) ? authorization.join(', ') : authorization
  if (header === undefined || header === '') return []
  const forms = new Set<string>()
  const match = SCHEME.exec(header)
  const token = match ? (match[2] as string) : header.trim()
  // a token of a few characters could be any word; the base64 of even `u:p` is four
  if (token.length >= 4) forms.add(token)
  if (match && (match[1] as string).toLowerCase() === 'basic') {
    const pair = Buffer.from(token, 'base64').toString('utf8')
    const colon = pair.indexOf(':')
    if (colon >= 0 && colon < pair.length - 1) {
      const base64 = Buffer.from(pair, 'utf8').toString('base64')
      for (const form of [pair, encodeURIComponent(pair), base64, base64.replace(/=+$/, ''), Buffer.from(pair, 'utf8').toString('base64url')]) forms.add(form)
    }
  }
  return [...forms].filter((form) => form.length >= 3).sort((a, b) => b.length - a.length)
}

const cut = (text: string, forms: readonly string[]) => forms.reduce((out, form) => (out.includes(form) ? out.replaceAll(form, REDACTED) : out), text)

/** Headers as shown: one string a name, credentials "[redacted]", other values cut of the request's credentials too. */
function shownHeaders(headers: IncomingHttpHeaders | AnswerHeaders, forms: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue
    const text = Array.isArray(value) ? value.join(', ') : String(value)
    if (SECRET_HEADER.test(name)) {
      const scheme = /^(proxy-)?authorization$/i.test(name) ? SCHEME.exec(text)?.[1] : undefined
      out[name.toLowerCase()] = scheme === undefined ? REDACTED : `${scheme} ${REDACTED}`
    } else out[name.toLowerCase()] = cut(text, forms)
  }
  return out
}

const binary = (bytes: number, contentType: string | undefined, how = ''): JournalBody => ({
  kind: 'binary',
  ...(bytes >= 0 ? { bytes } : {}),
  ...(contentType === undefined ? {} : { contentType }),
  note: `binary, ${bytes >= 0 ? `${count(bytes)} bytes` : 'size unknown'}${how}, content-type ${contentType ?? 'none'}`,
})

/** Text shown up to `shown` bytes, cut on a character's boundary, with how many bytes were left out. */
function textBody(text: string, contentType: string | undefined, forms: readonly string[], shown: number): JournalBody {
  const bytes = Buffer.byteLength(text)
  const redacted = cut(text, forms)
  const type = contentType === undefined ? {} : { contentType }
  if (bytes <= shown && redacted === text) return { kind: 'text', bytes, ...type, text }
  const all = Buffer.byteLength(redacted)
  if (all <= shown) return { kind: 'text', bytes, ...type, text: redacted }
  // at most `shown` bytes; a character the cut would split is left out whole
  const head = Buffer.from(redacted.slice(0, shown)).subarray(0, shown)
  const kept = new TextDecoder('utf-8').decode(head, { stream: true })
  const omittedBytes = all - Buffer.byteLength(kept)
  return { kind: 'text', bytes, ...type, text: kept, omittedBytes, note: `cut at ${count(Buffer.byteLength(kept))} bytes: ${count(omittedBytes)} more bytes left out` }
}

/** Bytes of a text type: shown as text when they are valid UTF-8, else as binary. */
function bytesBody(body: Buffer, contentType: string | undefined, forms: readonly string[], shown: number): JournalBody {
  let text: string
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(body)
  } catch {
    return binary(body.length, contentType)
  }
  return textBody(text, contentType, forms, shown)
}

/** Why an entry's bodies (and headers) are gone. */
function droppedNote(journal: Journal, detail: Detail | undefined): string | undefined {
  if (detail === undefined) return 'The journal holds no headers or bodies of this request: it was recorded without them.'
  const mib = (bytes: number) => `${Math.round(bytes / 1048576)} MiB`
  if (detail.headersDropped) return `Its headers and bodies were dropped: the journal keeps those of its newest requests only, ${mib(journal.maxHeaderBytes)} of headers in all.`
  if (!detail.bodiesDropped) return undefined
  if (detail.bodyBytes > journal.maxBodyBytes) return `Its bodies were dropped: ${count(detail.bodyBytes)} bytes, more than the ${mib(journal.maxBodyBytes)} of bodies the journal keeps in all.`
  return `Its bodies were dropped: the journal keeps the bodies of its newest requests only, ${mib(journal.maxBodyBytes)} in all.`
}

function requestBody(detail: Detail, forms: readonly string[], shown: number, dropped: string | undefined): JournalBody {
  const declared = Number(detail.requestLength)
  const length = Number.isSafeInteger(declared) && declared >= 0 ? declared : undefined
  const type = detail.requestType
  const body = detail.requestBody
  if (detail.bodiesDropped) return { kind: 'dropped', ...(length === undefined ? {} : { bytes: length }), ...(type === undefined ? {} : { contentType: type }), note: dropped ?? 'dropped' }
  if (typeof body === 'string') return textBody(body, type, forms, shown)
  if (body !== undefined && body !== null) return textBody(JSON.stringify(body) ?? '', type, forms, shown)
  if (length === 0 || (length === undefined && !detail.requestChunked)) return { kind: 'none' }
  return {
    kind: 'unread',
    ...(length === undefined ? {} : { bytes: length }),
    ...(type === undefined ? {} : { contentType: type }),
    note: `not read: the fake answered without reading it${length === undefined ? '' : ` (${count(length)} bytes by its Content-Length)`}`,
  }
}

function answerBody(detail: Detail, forms: readonly string[], shown: number, dropped: string | undefined): JournalBody {
  const type = detail.answerType
  switch (detail.answerHold) {
    case 'none':
      return { kind: 'none' }
    case 'binary':
      return binary(detail.answerBytes, type)
    case 'stream':
      if (type !== undefined && !TEXT_TYPE.test(type)) return binary(detail.answerBytes, type, ' (sent as a stream)')
      return {
        kind: 'unread',
        ...(detail.answerBytes >= 0 ? { bytes: detail.answerBytes } : {}),
        ...(type === undefined ? {} : { contentType: type }),
        note: 'sent as a stream (or cut short by a fault): the journal keeps no copy of it',
      }
    case 'text': {
      const body = detail.answerBody
      if (detail.bodiesDropped || body === undefined) return { kind: 'dropped', ...(type === undefined ? {} : { contentType: type }), note: dropped ?? 'dropped' }
      return typeof body === 'string' ? textBody(body, type, forms, shown) : bytesBody(body, type, forms, shown)
    }
  }
}

/**
 * One entry as GET /__mock/requests/{id} answers it: the entry's fields, its request
 * (method, URL, headers, body) and its answer (status, headers, body), bodies capped at
 * `shown` bytes, credentials redacted; a URL longer than `urlShown` is cut, saying so.
 */
export function entryDetail(journal: Journal, held: Readonly<HeldEntry>, options: { shown?: number; urlShown?: number } = {}): JournalEntryDetail {
  const shown = options.shown ?? BODY_SHOWN
  const detail = held.detail
  const forms = secretForms(detail?.requestHeaders?.authorization)
  const whole = cut(held.url, forms)
  const max = options.urlShown ?? Number.POSITIVE_INFINITY
  const url = whole.length <= max ? whole : `${whole.slice(0, max)}… (${whole.length - max} more characters)`
  const dropped = droppedNote(journal, detail)
  const entry: JournalEntryDetail = {
    id: held.id,
    method: held.method,
    url,
    status: held.status,
    time: typeof held.time === 'number' ? formatTimestamp(held.time) : held.time,
    user: held.user,
    ...(held.fault === undefined ? {} : { fault: held.fault }),
    ...(held.contentType === undefined ? {} : { contentType: held.contentType }),
    ...(held.retryAfter === undefined ? {} : { retryAfter: held.retryAfter }),
    ...(held.digest === undefined ? {} : { digest: held.digest }),
    ...(held.nextPage === undefined ? {} : { nextPage: held.nextPage }),
    request: {
      method: held.method,
      url,
      ...(detail?.requestHeaders === undefined ? {} : { headers: shownHeaders(detail.requestHeaders, forms) }),
      body: detail === undefined ? { kind: 'dropped', note: dropped ?? 'dropped' } : requestBody(detail, forms, shown, dropped),
    },
    answer: {
      status: held.status,
      ...(detail?.answerHeaders === undefined ? {} : { headers: shownHeaders(detail.answerHeaders, forms) }),
      body: detail === undefined ? { kind: 'dropped', note: dropped ?? 'dropped' } : answerBody(detail, forms, shown, dropped),
    },
    ...(dropped === undefined ? {} : { dropped }),
  }
  return entry
}
