// The OpenAPI document is generated from the route schemas: a valid OpenAPI 3.1
// document listing every API endpoint with every status it answers, served without
// auth as JSON and YAML, and held against every answer the suite gets (helpers/board.ts).
import { Validator } from '@seriousme/openapi-schema-validator'
import t from 'tap'
import { parse } from 'yaml'
import { buildApp } from '../../src/fake/app.js'
import { FORMATS } from '../../schemas/formats.js'
import { API_PREFIX } from '../../src/fake/store/record-links.js'
import { board, call, type Json } from '../helpers/board.js'
import { runToEnd } from '../helpers/cli.js'

const EVERYWHERE = ['200', '400', '401', '429', '500', '503']

t.test('is a valid OpenAPI 3.1 document of every API endpoint, served at /openapi.json without auth', async (t) => {
  const app = await board(t, { scenario: 'empty' })
  const answer = await app.inject('/openapi.json')
  t.equal(answer.statusCode, 200)
  const document = answer.json()
  const result = await new Validator().validate(document)
  t.ok(result.valid, `valid: ${JSON.stringify(result.errors ?? '').slice(0, 500)}`)
  t.equal(document.openapi, '3.1.0')
  const api = app.endpoints.filter((e) => e.url.startsWith(`${API_PREFIX}/`) && e.method !== 'HEAD')
  for (const { method, url } of api) {
    const path = url.replace(/:([a-z]+)/g, '{$1}')
    t.ok(document.paths[path]?.[method.toLowerCase()], `${method} ${path} is described`)
  }
  t.same(Object.keys(document.paths).filter((p) => !p.startsWith(API_PREFIX)), [], 'and nothing outside the API')
  t.same(document.components.securitySchemes, { basicAuth: { type: 'http', scheme: 'basic' } })
  const body = document.paths['/api/v1/job/add'].post.requestBody.content['application/json'].schema
  t.same(body.properties.salary_unit.enum, ['Per hour', 'Per year', 'Per week', 'Per month'], 'job/add carries the constrained values')
  t.same((await app.inject('/__mock/openapi.json')).json(), document, 'the same document under /__mock')
})

t.test('gives every operation a stable operationId, a summary, a description and a declared tag, as code generators need', async (t) => {
  const app = await board(t, { scenario: 'empty' })
  const document = (await app.inject('/openapi.json')).json()
  const declared = new Set((document.tags as Array<{ name: string; description: string }>).map((tag) => tag.name))
  const ids: string[] = []
  for (const [path, operations] of Object.entries<Record<string, { operationId?: string; summary?: string; description?: string; tags?: string[] }>>(document.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      const name = `${method.toUpperCase()} ${path}`
      ids.push(operation.operationId ?? '')
      t.match(operation.summary, /^[A-Z].{5,60}$/, `${name} has a short summary`)
      t.ok((operation.description ?? '').length > (operation.summary ?? '').length, `${name} has a description longer than its summary`)
      t.ok(operation.tags?.length === 1 && declared.has(operation.tags[0] as string), `${name} has one declared tag`)
    }
  }
  // the names clients are generated with: renaming one breaks every generated client
  t.same(ids.sort(), [
    'addJob', 'closeJob', 'deleteJob',
    'downloadApplicationAttachment', 'downloadCandidateDocument', 'downloadCandidateResume', 'downloadCandidateTimesheet', 'downloadTimesheet',
    'expireJob', 'getApplication', 'getCandidate', 'getJobFields',
    'listApplications', 'listCandidates', 'listMarketing', 'listMetrics', 'listTimesheets', 'repostJob',
  ])
  t.match(document.info, { contact: { name: /jobboard-kit/ }, license: { name: 'MIT', identifier: 'MIT' } }, 'info names a contact and the license')
})

t.test('gives the spec\'s own formats a pattern, so a validator that does not know `since` still refuses since=yesterday', async (t) => {
  const app = await board(t, { scenario: 'empty' })
  const document = (await app.inject('/openapi.json')).json()
  const since = document.paths['/api/v1/candidates/list'].get.parameters.find((p: { name: string }) => p.name === 'since').schema
  t.match(since, { format: 'since', pattern: FORMATS.since.pattern })
  const pattern = new RegExp(since.pattern)
  t.ok(pattern.test(FORMATS.since.example), 'the example passes')
  for (const bad of ['yesterday', '2026-11-22', '2026-13-01 10:00', '2026-11-22 24:00', '2026-11-22T10:00']) t.notOk(pattern.test(bad), `${bad} is refused`)
  const job = document.paths['/api/v1/job/add'].post.requestBody.content['application/json'].schema
  t.match(job.properties.closing_date, { format: 'job-date', pattern: FORMATS['job-date'].pattern }, 'job dates have theirs')
  const candidate = document.paths['/api/v1/candidates/details/{id}'].get.responses['200'].content['application/json'].schema.properties.data.items
  t.match(candidate.properties.created_at, { format: 'timestamp', pattern: FORMATS.timestamp.pattern }, 'timestamps have theirs')
  for (const [name, format] of Object.entries(FORMATS)) {
    if (format.pattern !== undefined) t.ok(new RegExp(format.pattern).test(format.example), `${name}'s pattern passes its example`)
  }
})

/** The parts of an OpenAPI operation the next test reads. */
type Operation = {
  parameters?: Array<{ in: string; name: string }>
  responses: Record<string, { description: string; content: Record<string, { schema: Json }>; headers?: Record<string, unknown> }>
}

t.test('lists every status each operation answers, with its body and headers', async (t) => {
  const app = await board(t, { scenario: 'empty' })
  const document = (await app.inject('/openapi.json')).json()
  for (const [path, operations] of Object.entries<Record<string, Operation>>(document.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      const name = `${method.toUpperCase()} ${path}`
      const expected = new Set(EVERYWHERE)
      if (path.includes('{id}')) for (const s of ['404', '412']) expected.add(s)
      if (operation.parameters?.some((p) => p.in === 'query')) expected.add('412')
      if (operation.parameters?.some((p) => p.name === 'page')) expected.add('404')
      if (method === 'post') for (const s of ['412', '413', '415']) expected.add(s)
      if (method === 'post' && !path.endsWith('/job/add')) expected.add('404')
      t.same(Object.keys(operation.responses).sort(), [...expected].sort(), `${name} lists its statuses`)
      for (const [status, response] of Object.entries(operation.responses)) {
        t.ok(response.description.length > 20, `${name} ${status} says when`)
        if (status === '200') continue
        t.same(response.content['application/json']?.schema.properties.status, { type: 'integer', enum: [Number(status)] }, `${name} ${status} has its error body`)
      }
      const header = (status: string, name: string) => operation.responses[status]?.headers?.[name]
      t.match(header('401', 'WWW-Authenticate'), { required: true, schema: { type: 'string' } }, `${name} 401 has WWW-Authenticate`)
      t.match(header('429', 'Retry-After'), { required: true, schema: { pattern: '^[0-9]+$' } }, `${name} 429 has Retry-After`)
    }
  }
  const resume = document.paths['/api/v1/candidates/resume/{id}'].get.responses['200']
  t.same(Object.keys(resume.content), ['application/octet-stream'], 'downloads are described as bytes')
  t.same(Object.keys(resume.headers), ['Content-Type', 'Content-Length', 'Content-Disposition', 'Content-Transfer-Encoding'], 'with the download headers')
  const timesheet = document.paths['/api/v1/candidates/timesheets/download/{id}'].get.responses['200']
  t.same(Object.keys(timesheet.content), ['application/x-timesheet-octet-stream'])
  const list = document.paths['/api/v1/timesheets/list'].get.responses['200'].content['application/json'].schema
  t.match(list.properties.next_page.description, /full URL of the next page/, 'paging links are described')
  t.match(list.properties.prev_page.description, /false. on the first page/)
})

t.test('is served as YAML too, without auth, here and under /__mock', async (t) => {
  const app = await board(t, { scenario: 'empty' })
  const json = (await app.inject('/openapi.json')).json()
  for (const url of ['/openapi.yaml', '/__mock/openapi.yaml']) {
    const answer = await app.inject(url)
    t.equal(answer.statusCode, 200, url)
    t.match(answer.headers['content-type'], /^application\/yaml/)
    t.same(parse(answer.body), json, `${url} holds the same document`)
  }
})

t.test('the response check reports an answer the document does not describe', async (t) => {
  const problems: string[] = []
  const app = await buildApp({ clock: 'virtual', rateLimitWindow: 0, checkResponses: (problem) => problems.push(problem) })
  t.teardown(() => app.close())
  // routes added to the fake's app answer before its own (an override), through the same
  // hooks: these answer what the document does not allow for the fake's routes they stand for
  app.get('/api/v1/metrics/list', async (_request, reply) => reply.type('application/json').send(JSON.stringify({ status: 200 })))
  app.get('/api/v1/candidates/list', async (_request, reply) => reply.code(418).type('application/json').send('{"status":418,"message":"short and stout"}'))
  app.get('/api/v1/timesheets/list', async (_request, reply) => reply.code(429).type('application/json').send('{"status":429,"message":"wait"}'))
  t.equal((await call(app, '/api/v1/metrics/list')).status, 200)
  t.match(problems.shift(), /GET \/api\/v1\/metrics\/list answered 200.*must have required property 'metrics'/)
  t.equal((await call(app, '/api/v1/candidates/list')).status, 418)
  t.match(problems.shift(), /status 418 is not among those documented \(200, 400, 401, /)
  t.equal((await call(app, '/api/v1/timesheets/list')).status, 429)
  t.match(problems.shift(), /lacks the documented header Retry-After/)
  t.equal((await call(app, '/api/v1/applications/list')).status, 200)
  t.same(problems, [], 'and is quiet about an answer that fits')
})

t.test('jobboard-kit openapi prints the same document, as JSON or YAML', async (t) => {
  const app = await board(t, { scenario: 'empty' })
  const served = (await app.inject('/openapi.json')).json()
  const json = await runToEnd(['openapi'])
  t.equal(json.code, 0)
  t.same(JSON.parse(json.stdout), served)
  const yaml = await runToEnd(['openapi', '--format', 'yaml'])
  t.equal(yaml.code, 0)
  t.same(parse(yaml.stdout), served)
  const wrong = await runToEnd(['openapi', '--format', 'xml'])
  t.equal(wrong.code, 2)
  t.match(wrong.stderr, /xml.*is invalid.*json, yaml/)
})
