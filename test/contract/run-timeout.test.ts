// The run's own deadline: --run-timeout stops a run that a hanging deployment would hold
// for request timeout after request timeout, as SIGTERM does (exit 2, with the reason).
import t from 'tap'
import { contractAction } from '../../src/cli/contract.js'
import type { CommandIo } from '../../src/cli/io.js'
import { board, CREDENTIALS, on } from './helpers.js'

t.test('--run-timeout stops a run held by a deployment that never answers: exit 2 naming it', async (t) => {
  const { url } = await board(t, { answer: (x) => (on(x, /\/list$/) ? 'hang' : undefined) })
  let stderr = ''
  const io: CommandIo = {
    stdout: { write: () => true },
    stderr: { write: (text: string) => (stderr += text) },
    env: {},
    exit: () => undefined,
    onSignal: () => () => {},
  }
  const started = Date.now()
  const code = await contractAction({ baseUrl: url, ...CREDENTIALS, runTimeout: 1, only: 'candidates' }, io)
  t.equal(code, 2)
  t.ok(Date.now() - started < 10_000, 'it stopped at its deadline, not after the 30 s request timeout')
  t.match(stderr, /--run-timeout 1 s: stopping, deleting what this run made\n/)
  t.match(stderr, /jobboard-kit contract: interrupted \(--run-timeout 1 s\)\n$/)
})
