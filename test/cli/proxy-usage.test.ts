// `jobboard-kit proxy` refuses what it cannot start with in one line, exit 2: no --to, a
// --to that is no http(s) URL or carries credentials, a bad JOBBOARD_* value; --help
// names the one change it makes and how to turn it off.
import t from 'tap'
import { runToEnd } from '../helpers/cli.js'

t.test('without --to it says so in one line and exits 2', async (t) => {
  const { code, stderr } = await runToEnd(['proxy', '--port', '0'])
  t.equal(code, 2)
  t.match(stderr, /^jobboard-kit: --to is required: the deployment's base URL/)
  t.equal(stderr.trim().split('\n').length, 1)
})

t.test('a --to that is no http(s) URL, or that carries credentials, is refused naming the flag', async (t) => {
  for (const [to, said] of [
    ['staging.example.com', /--to "staging.example.com" is not an http\(s\) URL/],
    ['ftp://staging.example.com', /is not an http\(s\) URL/],
    ['https://user:hunter22@staging.example.com', /--to carries credentials/],
  ] as const) {
    const { code, stderr } = await runToEnd(['proxy', '--to', to, '--port', '0'])
    t.equal(code, 2, to)
    t.match(stderr, said)
    t.notMatch(stderr, /hunter22/, 'a password given in --to is not repeated')
  }
})

t.test('the environment gives --to as JOBBOARD_TO, a bad value named by its variable', async (t) => {
  const { code, stderr } = await runToEnd(['proxy', '--port', '0'], { JOBBOARD_TO: 'not a url' })
  t.equal(code, 2)
  t.match(stderr, /JOBBOARD_TO/)
})

t.test('--help names the one change and --keep-links', async (t) => {
  const { code, stdout } = await runToEnd(['proxy', '--help'])
  t.equal(code, 0)
  t.match(stdout, /rewritten to the proxy's/)
  t.match(stdout, /--keep-links/)
  t.match(stdout, /\[env JOBBOARD_TO\]/)
})
