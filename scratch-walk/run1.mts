import { runContract } from '../src/contract/run.js'
import { resolveSettings } from '../src/contract/settings.js'
import { createMockServer } from '../src/fake/server.js'
const writes = process.argv.includes('--writes')
const fake = await createMockServer({})
const url = await fake.listen(0)
const settings = resolveSettings({ baseUrl: url, username: 'jobboard', password: 'jobboard', writes })
const quiet = { write: () => true }
const result = await runContract(settings, { stdout: quiet, stderr: quiet })
console.log('exit', result.exitCode, 'requests', result.report?.requests.length)
for (const r of result.report?.requests ?? []) console.log(r.status, r.method, r.url.replace(url, ''), r.credentials)
await fake.close()
