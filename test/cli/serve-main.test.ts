// `serve` from its own program (src/cli/serve-main.ts, the bundle `jobboard-kit serve`
// starts from) answers as the whole command line's does: the same help, the same one-line
// usage errors and exit codes, and a fake that serves and stops on a signal.
import t from 'tap'
import { main as whole } from '../../src/cli/main.js'
import { main as serveOnly } from '../../src/cli/serve-main.js'
import { captureIo } from '../helpers/cli.js'

const argvOf = (args: string[]) => [process.execPath, 'jobboard-kit', ...args]

/** Runs `args` (which must end on their own) through one program; answers the code and what it wrote. */
async function ran(main: typeof whole, args: string[]) {
  const captured = captureIo()
  const code = await main(argvOf(args), captured.io)
  return { code, stdout: captured.stdout(), stderr: captured.stderr() }
}

for (const args of [
  ['serve', '--help'],
  ['serve', '--port', 'eighty'],
  ['serve', '--scenario', 'no-such-scenario'],
  ['serve', '--no-such-flag'],
  ['serve', '--account', 'alice'],
  ['serve', 'extra'],
]) {
  t.test(`jobboard-kit ${args.join(' ')} answers the same from serve's own program`, async (t) => {
    const expected = await ran(whole, args)
    const got = await ran(serveOnly, args)
    t.same(got, expected)
    t.not(expected.stdout + expected.stderr, '', 'it says something')
  })
}

t.test('serve from its own program listens, answers and stops on SIGTERM with exit code 0', async (t) => {
  const captured = captureIo()
  const listening = new Promise<string>((resolve) =>
    captured.onStdout(() => {
      const url = /listening on (http:\/\/\S+)/.exec(captured.stdout())?.[1]
      if (url !== undefined) resolve(url)
    }),
  )
  const ended = serveOnly(argvOf(['serve', '--port', '0', '--host', '127.0.0.1']), captured.io)
  const url = await listening
  const response = await fetch(`${url}/api/v1/candidates/list`, { headers: { authorization: `Basic ${Buffer.from('jobboard:jobboard').toString('base64')}` } })
  t.equal(response.status, 200)
  t.ok(Array.isArray(((await response.json()) as { data?: unknown }).data), 'a page of candidates')
  captured.signal('SIGTERM')
  t.equal(await ended, 0)
})
