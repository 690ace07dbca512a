// Real staging networks: an https:// base URL whose certificate a private CA signed,
// reached through a real HTTP proxy (CONNECT) named by HTTPS_PROXY. With the CA in
// NODE_EXTRA_CA_CERTS the run completes (exit 0) and every request went through the
// proxy; without it the run exits 2 naming the certificate problem; --insecure skips the
// check only by name, with a warning. Bad network settings (a proxy that is not a URL,
// a CA file that does not parse, a base URL with credentials) get one line and exit 2.
import { execFileSync } from 'node:child_process'
import { writeFileSync, readFileSync } from 'node:fs'
import { createServer as createHttpServer, request as httpRequest } from 'node:http'
import { createServer as createHttpsServer } from 'node:https'
import { connect, type AddressInfo } from 'node:net'
import { join } from 'node:path'
import t, { type Test } from 'tap'
import { resolveSettings } from '../../src/contract/settings.js'
import { createMockServer } from '../../src/fake/server.js'
import { runProcessToEnd } from '../helpers/cli.js'
import { CREDENTIALS } from './helpers.js'

/** Whether openssl can be run here: it makes the CA and the server's certificate. */
function hasOpenssl(): boolean {
  try {
    execFileSync('openssl', ['version'], { stdio: 'ignore' })
    return true
  } catch {
    return false
  }
}

/** A private CA and a certificate it signed for localhost and 127.0.0.1. */
function certificates(dir: string): { ca: string; key: Buffer; cert: Buffer } {
  const at = (name: string) => join(dir, name)
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes']
  const quiet = { stdio: 'ignore' } as const
  execFileSync('openssl', ['req', '-x509', ...ec, '-keyout', at('ca.key'), '-out', at('ca.pem'), '-days', '2', '-subj', '/CN=jobboard-kit test CA'], quiet)
  execFileSync('openssl', ['req', ...ec, '-keyout', at('server.key'), '-out', at('server.csr'), '-subj', '/CN=localhost'], quiet)
  writeFileSync(at('ext'), 'subjectAltName=DNS:localhost,IP:127.0.0.1\nbasicConstraints=CA:FALSE\n')
  execFileSync('openssl', ['x509', '-req', '-in', at('server.csr'), '-CA', at('ca.pem'), '-CAkey', at('ca.key'), '-CAcreateserial', '-out', at('server.pem'), '-days', '2', '-extfile', at('ext')], quiet)
  return { ca: at('ca.pem'), key: readFileSync(at('server.key')), cert: readFileSync(at('server.pem')) }
}

/** The fake behind an HTTPS front with the CA-signed certificate; answers the https base URL. */
async function httpsFake(t: Test, tls: { key: Buffer; cert: Buffer }): Promise<string> {
  let upstream = ''
  const front = createHttpsServer(tls, (request, response) => {
    const forward = httpRequest(`${upstream}${request.url}`, { method: request.method, headers: request.headers }, (answer) => {
      response.writeHead(answer.statusCode ?? 502, answer.headers)
      answer.pipe(response)
    })
    forward.on('error', () => response.destroy())
    request.pipe(forward)
  })
  await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve))
  const base = `https://localhost:${(front.address() as AddressInfo).port}`
  const fake = await createMockServer({ clock: 'virtual', port: 0, publicBaseUrl: base, rateLimitWindow: 0 })
  upstream = await fake.listen(0)
  t.teardown(async () => {
    front.closeAllConnections()
    await new Promise((resolve) => front.close(resolve))
    await fake.close()
  })
  return base
}

/** A forward proxy that tunnels CONNECT, as a corporate proxy does; counts its tunnels. */
async function connectProxy(t: Test): Promise<{ url: string; tunnels: () => string[] }> {
  const tunnels: string[] = []
  const proxy = createHttpServer((_request, response) => {
    response.writeHead(405).end('CONNECT only')
  })
  proxy.on('connect', (request, client, head) => {
    tunnels.push(request.url ?? '')
    const [host, port] = (request.url ?? '').split(':')
    const server = connect(Number(port), host === 'localhost' ? '127.0.0.1' : (host as string), () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n')
      server.write(head)
      server.pipe(client)
      client.pipe(server)
    })
    server.on('error', () => client.destroy())
    client.on('error', () => server.destroy())
  })
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve))
  t.teardown(async () => {
    proxy.closeAllConnections()
    await new Promise((resolve) => proxy.close(resolve))
  })
  return { url: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`, tunnels: () => tunnels }
}

const ENV = { JOBBOARD_USERNAME: CREDENTIALS.username, JOBBOARD_PASSWORD: CREDENTIALS.password, NO_PROXY: '', no_proxy: '', HTTP_PROXY: '', http_proxy: '', https_proxy: '' }
const ARGS = ['contract', '--only', 'candidates,auth', '--rate-limit-window', '0']

const openssl = hasOpenssl()
t.test(openssl ? 'https through a proxy' : 'https through a proxy: skipped, openssl is not installed to make the test CA', { skip: !openssl }, async (t) => {
  const dir = t.testdir()
  const tls = certificates(dir)
  const base = await httpsFake(t, tls)
  const proxy = await connectProxy(t)

  t.test('with the CA in NODE_EXTRA_CA_CERTS the run completes, every request through the proxy', async (t) => {
    const run = await runProcessToEnd([...ARGS, '--base-url', base], { ...ENV, HTTPS_PROXY: proxy.url, NODE_EXTRA_CA_CERTS: tls.ca })
    t.equal(run.code, 0, run.stderr)
    t.equal(run.stderr, '', 'nothing on stderr, no experimental warning either')
    t.match(run.stdout, /\d+ passed, 0 failed, \d+ skipped, 0 errored; checked (\d+) of \1 planned\n$/)
    t.ok(proxy.tunnels().length > 0 && proxy.tunnels().every((to) => to === base.replace('https://', '')), `the proxy tunnelled ${proxy.tunnels().length} connections to the deployment`)
  })

  t.test('without the CA the run exits 2 naming the certificate problem', async (t) => {
    const run = await runProcessToEnd([...ARGS, '--base-url', base], { ...ENV, HTTPS_PROXY: proxy.url, NODE_EXTRA_CA_CERTS: '' })
    t.equal(run.code, 2)
    t.match(run.stderr, /^jobboard-kit contract: cannot reach https:\/\/localhost:\d+ through the proxy: its TLS certificate is not trusted \((UNABLE_TO_VERIFY_LEAF_SIGNATURE|SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_GET_ISSUER_CERT_LOCALLY).*\): give the CA that signed it in NODE_EXTRA_CA_CERTS, or --insecure for a test deployment\n$/)
  })

  t.test('--insecure reaches it without the CA, with a warning', async (t) => {
    const run = await runProcessToEnd([...ARGS, '--base-url', base, '--insecure'], { ...ENV, NODE_EXTRA_CA_CERTS: '' })
    t.equal(run.code, 0, run.stderr)
    t.equal(run.stderr, 'jobboard-kit contract: --insecure: TLS certificates are not verified; use it against a test deployment only\n')
  })

  t.test('NO_PROXY naming the host goes straight, past a proxy that would not answer', async (t) => {
    const run = await runProcessToEnd([...ARGS, '--base-url', base], { ...ENV, HTTPS_PROXY: 'http://127.0.0.1:9', NO_PROXY: 'localhost', NODE_EXTRA_CA_CERTS: tls.ca })
    t.equal(run.code, 0, run.stderr)
  })
})

t.test('bad network settings get one clear line and exit 2', async (t) => {
  const dir = t.testdir({ 'bad.pem': '-----BEGIN CERTIFICATE-----\nnot base64 at all\n-----END CERTIFICATE-----\n', 'empty.pem': 'hello\n' })
  const base = { baseUrl: 'https://staging.example.com' }
  const cases: Array<[string, NodeJS.ProcessEnv, RegExp]> = [
    ['a proxy that is not a URL', { HTTPS_PROXY: 'http://user:secret@ proxy' }, /^HTTPS_PROXY is not a URL: give the proxy as http:\/\/host:port\.$/],
    ['a proxy without a scheme', { HTTPS_PROXY: 'proxy.corp:3128' }, /^HTTPS_PROXY must be an http:\/\/ or https:\/\/ URL \(a host:port alone is not one\)\.$/],
    ['a proxy of another scheme', { HTTP_PROXY: 'socks5://proxy.corp:1080' }, /^HTTP_PROXY must be an http:\/\/ or https:\/\/ URL/],
    ['a CA file that does not parse', { NODE_EXTRA_CA_CERTS: join(dir, 'bad.pem') }, /^NODE_EXTRA_CA_CERTS .*bad\.pem: certificate 1 does not parse: /],
    ['a CA file without a certificate', { NODE_EXTRA_CA_CERTS: join(dir, 'empty.pem') }, /^NODE_EXTRA_CA_CERTS .*empty\.pem holds no PEM certificate/],
    ['a CA file that is not there', { NODE_EXTRA_CA_CERTS: join(dir, 'missing.pem') }, /^NODE_EXTRA_CA_CERTS .*missing\.pem cannot be read: ENOENT$/],
  ]
  for (const [what, env, message] of cases) t.throws(() => resolveSettings(base, env), { name: 'UsageError', message }, what)
  t.throws(() => resolveSettings({ baseUrl: 'https://user:pass@staging.example.com' }), { name: 'UsageError', message: /must not hold credentials: give --username and --password/ }, 'a base URL with credentials')
  const run = await runProcessToEnd(['contract', '--base-url', 'https://staging.example.com'], { ...ENV, HTTPS_PROXY: 'not a url' })
  t.equal(run.code, 2)
  t.equal(run.stderr, 'jobboard-kit contract: HTTPS_PROXY is not a URL: give the proxy as http://host:port.\n', 'one line on stderr')
})
