// Checks shared by the detail and download endpoints and by the links that point at
// them: a detail holds the one record listed; a download carries the headers the spec
// names; an unknown id is refused with JSON; an href points at the endpoint the spec
// names for it.
import type { Minimal } from '@tapjs/core'
import { check, need, Skip, where, type Asserter } from '../checks.js'
import type { RunContext } from '../context.js'
import type { Answer, Client } from '../http.js'
import type { Pick } from '../plan.js'
import { int, isRec, recs } from '../records.js'
import { refusedWithJson } from './lists.js'

/** What is wrong with an href, given the API path it must have (`/candidates/details/12`), or a pattern of it. */
export function hrefProblem(href: unknown, client: Client, path: RegExp | string, what: string): string | undefined {
  if (typeof href !== 'string') return `${what} is ${JSON.stringify(href) ?? 'absent'}, not a URL`
  let url: URL
  try {
    url = new URL(href)
  } catch {
    return `${what} ${JSON.stringify(href)} is not an absolute URL`
  }
  const prefix = new URL(client.api('')).pathname
  const rest = url.pathname.startsWith(prefix) ? url.pathname.slice(prefix.length) : undefined
  const fits = rest !== undefined && url.search === '' && (typeof path === 'string' ? rest === path : path.test(rest))
  return fits ? undefined : `${what} ${href} does not point at ${prefix}${typeof path === 'string' ? path : path.source.replace(/^\^|\$$/g, '')}`
}

/** Every href problem of some records, one failure each (at most 10, then a count). */
export function hrefsPointAt(a: Asserter, ctx: RunContext, endpoint: string, hrefs: Array<{ href: unknown; path: RegExp | string; what: string }>, message: string): void {
  if (hrefs.length === 0) throw new Skip('no such link in the records fetched')
  const problems = hrefs.map(({ href, path, what }) => hrefProblem(href, ctx.client, path, what)).filter((p): p is string => p !== undefined)
  const elsewhere = hrefs.filter(({ href }) => typeof href === 'string' && /^https?:/.test(href) && !ctx.client.sameOrigin(href))
  if (elsewhere.length > 0) {
    ctx.observations.add({ topic: 'links', endpoint, summary: `${elsewhere.length} links are on another origin than the base URL, e.g. ${String(elsewhere[0]?.href)}` })
  }
  a.none(problems.length > 10 ? [...problems.slice(0, 10), `... and ${problems.length - 10} more`] : problems, `${hrefs.length} ${message}`)
}

/** A link followed: it must answer 200. */
export function resolves(a: Asserter, answer: Answer, what: string): void {
  a.ok(answer.status === 200, `${what} ${where(answer.url)} answers 200`, `${what} ${where(answer.url)} answered HTTP ${answer.status}`)
}

export function unknownIdCheck(t: Minimal, ctx: RunContext, endpoint: string, path: string): void {
  check(t, 'an unknown id answers a 4xx with a JSON body', async (a) => {
    const answer = need(await ctx.plan.unknown(path))
    refusedWithJson(a, answer.status, answer.json, `the unknown id ${where(answer.url)}`)
    if (answer.status >= 500) a.fail(`a server error (${answer.status}) is no answer to an unknown id`)
    ctx.observations.add({
      topic: 'unknown-id',
      endpoint,
      summary: `an unknown id answers HTTP ${answer.status}${isRec(answer.json) ? ` ${JSON.stringify(answer.json).slice(0, 100)}` : ` (${answer.headers['content-type'] ?? 'no content type'})`}`,
      details: { status: answer.status, contentType: answer.headers['content-type'], body: answer.json },
    })
  })
}

export interface DetailOptions {
  endpoint: string
  noun: string
  schema: object
  pick: () => Promise<Pick>
  unknownPath: string
}

export function detailChecks(t: Minimal, ctx: RunContext, options: DetailOptions): void {
  const { endpoint, noun, schema, pick } = options
  check(t, `the detail of a listed ${noun} fits the schema`, async (a) => {
    const answer = need((await pick()).got)
    if (!a.ok(answer.status === 200, 'answers HTTP 200', `${where(answer.url)} answered HTTP ${answer.status}, not 200`)) return
    ctx.fits(a, schema, answer, endpoint, 'the detail')
  })
  check(t, `the detail holds exactly the listed ${noun}`, async (a) => {
    const { got, record } = await pick()
    const answer = need(got)
    if (answer.status !== 200 || !isRec(answer.json)) throw new Skip(`${where(answer.url)} answered HTTP ${answer.status} (see the schema check)`)
    const data = recs(answer.json.data)
    a.ok(answer.json.total === 1 && data.length === 1, 'total 1 and one record', `total ${JSON.stringify(answer.json.total)} and ${data.length} records, not 1 and 1`)
    const held = data[0]
    a.ok(held !== undefined && int(held.id) === int(record?.id), `it is ${noun} ${String(record?.id)}`, `it holds ${noun} ${String(held?.id)}, not ${String(record?.id)}`)
    // a record changed between the two requests may differ; one that did not must not
    if (held && record && held.updated_at === record.updated_at) {
      // a field the list gives but a detail need not (an application's href) is left out of the comparison
      const declared = new Set(Object.keys((schema as { properties?: { data?: { items?: { properties?: object } } } }).properties?.data?.items?.properties ?? {}))
      const keys = [...new Set([...Object.keys(held), ...Object.keys(record).filter((k) => declared.has(k))])]
      const differing = keys.filter((k) => JSON.stringify(held[k]) !== JSON.stringify(record[k]))
      a.ok(differing.length === 0, 'it equals the listed record', `it differs from the listed record in ${differing.join(', ')}`)
    }
  })
  unknownIdCheck(t, ctx, endpoint, options.unknownPath)
}

export interface DownloadOptions {
  endpoint: string
  pick: () => Promise<Pick>
  /** The exact Content-Type the spec names, when it names one; else any octet-stream type. */
  contentType: string | undefined
  unknownPath: string
}

/** Content-Disposition's file name: the RFC 5987 `filename*` when given, else `filename`. */
export function dispositionFilename(header: string): string | undefined {
  const extended = /filename\*\s*=\s*([^']*)'[^']*'([^;]+)/i.exec(header)
  if (extended?.[2]) {
    try {
      return decodeURIComponent(extended[2].trim())
    } catch {
      return undefined
    }
  }
  const quoted = /filename\s*=\s*"((?:[^"\\]|\\.)*)"/i.exec(header)
  if (quoted?.[1] !== undefined) return quoted[1].replace(/\\(.)/g, '$1')
  return /filename\s*=\s*([^;\s]+)/i.exec(header)?.[1]
}

export function downloadChecks(t: Minimal, ctx: RunContext, options: DownloadOptions): void {
  const { endpoint, pick } = options
  const file = async (): Promise<{ answer: Answer; expected: Pick['expected'] }> => {
    const { got, expected } = await pick()
    const answer = need(got)
    if (answer.status !== 200) throw new Skip(`${where(answer.url)} answered HTTP ${answer.status} (see the first check)`)
    return { answer, expected }
  }
  check(t, 'the listed link answers 200 with an octet-stream Content-Type', async (a) => {
    const answer = need((await pick()).got)
    if (!a.ok(answer.status === 200, `${where(answer.url)} answers 200`, `${where(answer.url)} answered HTTP ${answer.status}, not 200`)) return
    const type = answer.headers['content-type']
    const essence = type?.split(';')[0]?.trim().toLowerCase()
    ctx.observations.add({ topic: 'download', endpoint, summary: `Content-Type: ${type ?? '(none)'}` })
    if (options.contentType !== undefined) a.ok(essence === options.contentType, `Content-Type is ${options.contentType}`, `Content-Type is ${type ?? 'missing'}, not ${options.contentType}`)
    else a.ok(essence !== undefined && /^[a-z]+\/[a-z0-9.+-]*octet-stream$/.test(essence), `Content-Type ${type} is an octet-stream type`, `Content-Type is ${type ?? 'missing'}, not an octet-stream type`)
  })
  check(t, 'Content-Length equals the bytes received', async (a) => {
    const { answer } = await file()
    const length = answer.headers['content-length']
    if (!a.ok(length !== undefined && /^[0-9]+$/.test(length), `Content-Length is ${length}`, `Content-Length is ${length === undefined ? 'missing' : JSON.stringify(length)}`)) return
    const received = answer.bytes.length
    a.ok(Number(length) === received && answer.truncated === undefined, `${received} bytes came`,
      `Content-Length says ${length} but ${received} bytes came${answer.truncated ? ` before the connection ended (${answer.truncated})` : ''}`)
  })
  check(t, 'Content-Length equals the listed filesize', async (a) => {
    const { answer, expected } = await file()
    if (expected.filesize === undefined) throw new Skip(`${expected.source || 'the list'} gives no filesize`)
    const length = answer.headers['content-length']
    a.ok(length === String(expected.filesize), `Content-Length ${length} is the filesize ${expected.source} gives`, `Content-Length is ${length ?? 'missing'} but ${expected.source} gives filesize ${expected.filesize}`)
  })
  check(t, 'Content-Disposition is attachment with the listed filename', async (a) => {
    const { answer, expected } = await file()
    const header = answer.headers['content-disposition']
    if (!a.ok(header !== undefined, 'Content-Disposition is sent', 'there is no Content-Disposition')) return
    a.ok(/^\s*attachment\s*(;|$)/i.test(header as string), 'it is attachment', `it is ${JSON.stringify(header)}, not attachment`)
    const name = dispositionFilename(header as string)
    if (!a.ok(name !== undefined && name !== '', `it names the file ${JSON.stringify(name)}`, 'it names no filename')) return
    if (expected.filename !== undefined) {
      a.ok(name === expected.filename, `the filename is the one ${expected.source} gives`, `the filename is ${JSON.stringify(name)} but ${expected.source} gives ${JSON.stringify(expected.filename)}`)
    }
  })
  check(t, 'Content-Transfer-Encoding is binary', async (a) => {
    const { answer } = await file()
    const encoding = answer.headers['content-transfer-encoding']
    a.ok(encoding?.trim().toLowerCase() === 'binary', 'Content-Transfer-Encoding: binary', `Content-Transfer-Encoding is ${encoding === undefined ? 'missing' : JSON.stringify(encoding)}`)
  })
  unknownIdCheck(t, ctx, endpoint, options.unknownPath)
}
