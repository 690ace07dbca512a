// The OpenAPI document is generated from the route schemas: a valid OpenAPI 3.1
// document listing every API endpoint, and nothing but the API.
import { Validator } from '@seriousme/openapi-schema-validator'
import t from 'tap'
import { API_PREFIX } from '../src/store/links.js'
import { board } from './helpers/board.js'
import { runToEnd } from './helpers/cli.js'

t.test('is a valid OpenAPI 3.1 document of every API endpoint', async (t) => {
  const app = await board(t, { scenario: 'empty' })
  const answer = await app.inject('/__mock/openapi.json')
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
  const resume = document.paths['/api/v1/candidates/resume/{id}'].get.responses['200'].content
  t.same(Object.keys(resume), ['application/octet-stream'], 'downloads are described as bytes')
  const body = document.paths['/api/v1/job/add'].post.requestBody.content['application/json'].schema
  t.same(body.properties.salary_unit.enum, ['Per hour', 'Per year', 'Per week', 'Per month'], 'job/add carries the constrained values')
})

t.test('jobboard-kit openapi prints the same document', async (t) => {
  const run = await runToEnd(['openapi'])
  t.equal(run.code, 0)
  const app = await board(t, { scenario: 'empty' })
  t.same(JSON.parse(run.stdout), (await app.inject('/__mock/openapi.json')).json())
})
