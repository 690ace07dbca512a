import { createMockServer } from '../src/fake/server.js'
const fake = await createMockServer({ rateLimitWindow: 0 })
const url = await fake.listen(0)
const auth = 'Basic ' + Buffer.from('jobboard:jobboard').toString('base64')
for (const l of ['candidates', 'applications', 'timesheets', 'marketing']) {
  const r = await fetch(`${url}/api/v1/${l}/list`, { headers: { authorization: auth } })
  const j: any = await r.json()
  console.log(l, j.total, j.data.length, j.next_page, j.prev_page)
}
await fake.close()
