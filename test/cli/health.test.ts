// `jobboard-kit health`, the container's HEALTHCHECK: exit 0 when a fake answers HEAD
// /__mock/health with 200 (its control API off, as in the image), 1 when nothing answers
// there or something else does.
import { createServer } from 'node:http'
import t from 'tap'
import { runToEnd, serve } from '../helpers/cli.js'

t.test('exits 0 when the fake on JOBBOARD_PORT answers, naming what it asked', async (t) => {
  const { url } = await serve(t, ['--scenario', 'empty', '--control', 'off'])
  const port = new URL(url).port
  const run = await runToEnd(['health'], { JOBBOARD_PORT: port })
  t.equal(run.code, 0, run.stderr)
  t.equal(run.stdout, `jobboard-kit: http://127.0.0.1:${port}/__mock/health answered 200\n`)
  t.equal((await runToEnd(['health', '--url', `${url}/__mock/health`])).code, 0, 'or at --url')
})

t.test('exits 1 when nothing listens there, or something answers other than 200', async (t) => {
  const other = createServer((_request, response) => response.writeHead(503).end())
  await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve))
  const { port } = other.address() as { port: number }
  t.teardown(() => new Promise((resolve) => other.close(resolve)))
  const unhealthy = await runToEnd(['health', '--url', `http://127.0.0.1:${port}/openapi.json`])
  t.equal(unhealthy.code, 1)
  t.match(unhealthy.stderr, /answered 503/)
  other.close()
  const nobody = await runToEnd(['health', '--url', 'http://127.0.0.1:1/openapi.json', '--timeout', '500'])
  t.equal(nobody.code, 1)
  t.match(nobody.stderr, /http:\/\/127\.0\.0\.1:1\/openapi\.json did not answer/)
})
