// A reader that stops reading the CLI's output (`jobboard-kit openapi | head -c 100`) ends
// the command quietly with its exit code so far, as it would end `cat`: no unhandled
// EPIPE and no stack trace on stderr. A process; in test:integration.
import t from 'tap'
import { runCli } from '../helpers/cli.js'

t.test('a command whose reader goes away after the first bytes exits 0 without a stack trace', async (t) => {
  // the OpenAPI document is far longer than a pipe's buffer: the command is still writing when the reader leaves
  const child = runCli(['openapi'])
  let stderr = ''
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  const first = await new Promise<string>((resolve) => child.stdout.once('data', (chunk: Buffer) => resolve(chunk.toString())))
  t.match(first, /"openapi"/, 'the document began')
  child.stdout.destroy()
  const code = await new Promise<number | null>((resolve) => child.once('exit', (exitCode) => resolve(exitCode)))
  t.equal(code, 0, 'exit code 0')
  t.notMatch(stderr, /EPIPE|Error|at /, 'nothing on stderr but what the command says')
})
