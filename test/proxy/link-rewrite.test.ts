// The link rewrite (src/proxy/link-rewrite.ts) and the body the client gets (forward.ts)
// are what they were before issue 45 made them cheaper (a replacement string where only
// the plain spelling is written, the bytes read once with isUtf8, the rewritten text sent
// as it is): the same text, byte for byte, as the rewrite of before (kept here as the
// reference: one regular expression, a replacer function per link) on every answer of the
// fake's GET routes, in both spellings JSON allows and on bases of every form, and on many
// bodies made of the pieces where a rewrite could go wrong; through the proxy, the same
// bytes and Content-Length as before for bodies with a byte-order mark, with bytes that
// are not UTF-8, and with none of the upstream's links.
import { createServer, request as httpRequest } from 'node:http'
import type { AddressInfo } from 'node:net'
import t, { type Test } from 'tap'
import { createMockServer } from '../../src/index.js'
import { linkRewriter } from '../../src/proxy/link-rewrite.js'
import { createProxy } from '../../src/proxy/proxy-server.js'

/** The rewrite as it was before issue 45: the reference every text is held to. */
function rewriteBefore(base: string, text: string, origin: string): string {
  const escapeRegExp = (value: string) => value.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')
  const plain = base.replace(/\/+$/, '')
  const escaped = plain.replaceAll('/', '\\/')
  const pattern = new RegExp(`(${escapeRegExp(escaped)}|${escapeRegExp(plain)})(?![A-Za-z0-9._~%:-])`, 'g')
  if (!text.includes(new URL(plain).host)) return text
  return text.replace(pattern, (found) => (found === escaped ? origin.replaceAll('/', '\\/') : origin))
}

/** The body a client got before issue 45: decoded as UTF-8 (fatal, a leading BOM dropped), rewritten, encoded again; as it came when not UTF-8 or unchanged. */
function sentBefore(base: string, bytes: Buffer, origin: string): Buffer {
  let text: string
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes)
  } catch {
    return bytes
  }
  const rewritten = rewriteBefore(base, text, origin)
  return rewritten === text ? bytes : Buffer.from(rewritten)
}

/** JSON's other spelling of a text's slashes, as PHP's json_encode writes them. */
const slashesEscaped = (text: string) => text.replaceAll('/', '\\/')

const BASES = ['http://h.test:8080', 'http://h.test:80', 'https://api.example.test/staging', 'http://[::1]:9', 'http://127.0.0.1:3000/a/b/']
const ORIGINS = ['http://127.0.0.1:4000', 'http://proxy.test', 'http://[::1]:5', 'http://p.test/$&$1$$']

t.test("every answer of the fake's GET routes is rewritten as before, in both spellings and on every base", async (t) => {
  const mock = await createMockServer({ clock: 'virtual', rateLimitWindow: 0 })
  t.teardown(() => mock.close())
  const authorization = `Basic ${Buffer.from('jobboard:jobboard').toString('base64')}`
  const document = JSON.parse((await mock.app.inject({ url: '/openapi.json' })).body) as { paths: Record<string, { get?: unknown }> }
  const texts: string[] = []
  for (const [path, operations] of Object.entries(document.paths)) {
    if (operations.get === undefined) continue
    const answer = await mock.app.inject({ url: path.replace(/\{[^}]+\}/g, '1'), headers: { authorization, host: 'h.test:8080' } })
    texts.push(answer.body)
  }
  // later pages (next_page and prev_page both), a filtered walk
  for (const list of ['candidates', 'applications', 'timesheets', 'marketing']) {
    for (const query of ['page=2', 'page=3', 'since=2020-01-01 00:00']) texts.push((await mock.app.inject({ url: `/api/v1/${list}/list?${query}`, headers: { authorization, host: 'h.test:8080' } })).body)
  }
  const linked = texts.filter((text) => text.includes('http://h.test:8080'))
  t.ok(linked.length >= 15, `${linked.length} of ${texts.length} answers hold links`)
  let compared = 0
  for (const base of BASES) {
    const plain = base.replace(/\/+$/, '')
    for (const written of texts) {
      // the answer with its links on this base, then the same with JSON's escaped slashes, then both in one body
      const onBase = written.replaceAll('http://h.test:8080', plain)
      const forms = [onBase, slashesEscaped(onBase), `${onBase}${slashesEscaped(onBase)}`, written.replaceAll('http://h.test:8080', `${plain}0`)]
      for (const text of forms) {
        for (const origin of ORIGINS) {
          const now = linkRewriter(base).text(text, origin)
          if (now !== rewriteBefore(base, text, origin)) t.fail(`rewritten otherwise: base ${base}, origin ${origin}, ${text.slice(0, 120)}`)
          compared++
        }
      }
    }
  }
  t.equal(compared, texts.length * BASES.length * 4 * ORIGINS.length, `${compared} texts rewritten as before`)
  const rewritten = linkRewriter('http://h.test:8080').text(linked[0] as string, 'http://127.0.0.1:4000')
  t.notOk(rewritten.includes('h.test:8080'), 'and a rewrite leaves none of the base')
})

t.test('bodies made of the pieces a rewrite could get wrong are rewritten as before', async (t) => {
  // a seeded sequence: the same bodies every run
  let seed = 45
  const next = (n: number) => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff
    return seed % n
  }
  const bases = ['http://127.0.0.1:80', 'http://h:8', 'https://api.example.test/staging', 'http://x:1/a/b']
  let compared = 0
  for (let i = 0; i < 20_000; i++) {
    const base = bases[next(bases.length)] as string
    const p = base
    const pieces = [p, slashesEscaped(p), `${p}0`, `${p}/`, `${p}:`, `${p}?q=1`, `${p}#f`, '"', ' ', 'é', '\ufeff', 'http:', 'x', '\\', '/', `${p}${p}`, `${p}-`, `${p}%`, `${p}~`, `${p}.`, `${p}_`, '$&', '$1', new URL(p).host]
    let text = ''
    for (let k = 0, m = next(9); k < m; k++) text += pieces[next(pieces.length)]
    const origin = ORIGINS[next(ORIGINS.length)] as string
    const now = linkRewriter(base).text(text, origin)
    if (now !== rewriteBefore(base, text, origin)) t.fail(`rewritten otherwise: base ${base}, origin ${origin}, ${JSON.stringify(text)}`)
    compared++
  }
  t.equal(compared, 20_000, 'every body rewritten as before')
})

/** An upstream answering every request with the JSON bytes `body` gives (from its base URL), and the proxy in front of it. */
async function jsonBehindProxy(t: Test, body: (base: string) => Buffer): Promise<{ base: string; proxy: ReturnType<typeof createProxy> }> {
  const upstream = createServer((_request, response) => {
    const bytes = body(base)
    response.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': String(bytes.length) }).end(bytes)
  })
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve))
  t.teardown(() => upstream.close())
  const base = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`
  const proxy = createProxy({ to: base, port: 0 }, { warn: () => {} })
  await proxy.listen()
  t.teardown(() => proxy.close())
  return { base, proxy }
}

t.test('through the proxy, the client gets the bytes and the Content-Length it got before', async (t) => {
  let body: Buffer = Buffer.alloc(0)
  const { base, proxy } = await jsonBehindProxy(t, () => body)
  const link = `${base}/api/v1/candidates/list?page=2`
  const bodies: Array<[string, Buffer]> = [
    ['links in both spellings', Buffer.from(JSON.stringify({ status: 200, next_page: link, data: [{ href: `${base}/api/v1/candidates/details/1` }] }).replace('"data"', `"escaped":"${slashesEscaped(link)}","data"`))],
    ['a byte-order mark before the links', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(JSON.stringify({ next_page: link }))])],
    ['a byte-order mark and no link', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"status":200}')])],
    ['bytes that are not UTF-8 around a link', Buffer.concat([Buffer.from(`{"next_page":"${link}","name":"`), Buffer.from([0xc3, 0x28, 0xff]), Buffer.from('"}')])],
    ['characters past ASCII beside a link', Buffer.from(JSON.stringify({ name: 'Zoë Ørsted — ✓ 😀', next_page: link }))],
    ['no link', Buffer.from('{"status":200,"total":0,"data":[]}')],
    ['a base that goes on (another port)', Buffer.from(JSON.stringify({ next_page: `${base}0/api/v1/candidates/list` }))],
  ]
  for (const [what, bytes] of bodies) {
    body = bytes
    const answer = await fetch(`${proxy.url}/api/v1/candidates/list`)
    const got = Buffer.from(await answer.arrayBuffer())
    const expected = sentBefore(base, bytes, proxy.url)
    t.ok(got.equals(expected), `${what}: the bytes of before`)
    t.equal(answer.headers.get('content-length'), String(expected.length), `${what}: their length`)
  }
})

t.test('a Host past ASCII: the rewritten links hold it, and the Content-Length counts its bytes in UTF-8', async (t) => {
  const { proxy } = await jsonBehindProxy(t, (base) => Buffer.from(JSON.stringify({ status: 200, next_page: `${base}/api/v1/candidates/list?page=2`, name: 'Zoë' })))
  const { port } = new URL(proxy.url)
  // Node reads a header's bytes as Latin-1: the Host byte 0xe4 is "ä", two bytes in the UTF-8 the body is sent in
  const answer = await new Promise<{ length: string | undefined; bytes: Buffer }>((resolve, reject) => {
    const sent = httpRequest({ host: '127.0.0.1', port, path: '/api/v1/candidates/list', headers: { host: 'ex\u00e4mple.test' } }, (response) => {
      const chunks: Buffer[] = []
      response.on('data', (chunk: Buffer) => chunks.push(chunk))
      response.on('end', () => resolve({ length: response.headers['content-length'], bytes: Buffer.concat(chunks) }))
    })
    sent.on('error', reject)
    sent.end()
  })
  t.equal(JSON.parse(answer.bytes.toString('utf8')).next_page, 'http://ex\u00e4mple.test/api/v1/candidates/list?page=2', 'the link names the Host as the proxy read it')
  t.equal(answer.length, String(answer.bytes.length), 'the Content-Length is the bytes sent')
})
