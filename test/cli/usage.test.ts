// Usage errors: one line naming the problem and where the command's help is, exit 2,
// never the whole help; plain words for the slips people make most.
import t from 'tap'
import { scenarioNames } from '../../src/fake/scenario.js'
import { runToEnd } from '../helpers/cli.js'

const ONE_LINE = /^jobboard-kit: [^\n]+; see jobboard-kit( [a-z]+)? --help\n$/

const cases: Array<{ name: string; args: string[]; says: RegExp | string; help: string }> = [
  { name: 'an unknown flag, with the flag it looks like', args: ['serve', '--prot', '3'], says: /unknown option '--prot' \(Did you mean --port\?\)/, help: 'serve' },
  { name: 'a value outside the choices, with the choices', args: ['serve', '--clock', 'sundial'], says: /'sundial' is invalid\. Allowed choices are real, virtual/, help: 'serve' },
  { name: 'a number that is not one', args: ['serve', '--port', 'abc'], says: /--port .*expected a whole number/, help: 'serve' },
  { name: 'a number out of range, naming the flag', args: ['serve', '--page-size', '0'], says: /--page-size.* must be >= 1/, help: 'serve' },
  { name: 'a public base URL that is not a URL', args: ['serve', '--public-base-url', 'board.example.com'], says: /--public-base-url "board\.example\.com" is not an http\(s\) URL: give the origin clients should see, such as https:\/\/board\.example\.com/, help: 'serve' },
  { name: 'a control token that is too short, with the length it needs', args: ['serve', '--control-token', 'abc'], says: /--control-token is too short: it needs at least 8 characters, it has 3/, help: 'serve' },
  { name: 'a scenario name that does not exist, listing the ones that do', args: ['serve', '--scenario', 'defualt'], says: `there is no scenario "defualt": the scenarios are ${scenarioNames().join(', ')}, or give the path of a .json file`, help: 'serve' },
  { name: 'a scenario file that does not exist', args: ['serve', '--scenario', './no-such-board.json'], says: /no-such-board\.json/, help: 'serve' },
  { name: 'an unknown command, pointing at the top-level help', args: ['frobnicate'], says: /unknown command 'frobnicate'/, help: '' },
  { name: 'an unknown flag of another command, pointing at that command\'s help', args: ['contract', '--frobnicate'], says: /unknown option '--frobnicate'/, help: 'contract' },
]

for (const { name, args, says, help } of cases) {
  t.test(`answers ${name} in one line and exits 2`, async (t) => {
    const run = await runToEnd(args)
    t.equal(run.code, 2, 'exit 2')
    t.match(run.stderr, ONE_LINE, `one line:\n${run.stderr}`)
    t.match(run.stderr, says, 'naming the problem')
    t.ok(run.stderr.includes(`see jobboard-kit${help ? ` ${help}` : ''} --help`), 'and where the help is')
    t.notMatch(run.stderr, /Usage:/, 'without printing the help')
    t.equal(run.stdout, '', 'nothing on stdout')
  })
}

t.test('--help still prints the whole help and exits 0', async (t) => {
  const run = await runToEnd(['serve', '--help'])
  t.equal(run.code, 0)
  t.match(run.stdout, /^Usage: jobboard-kit serve/m)
  t.match(run.stdout, /--log <value>/)
})
