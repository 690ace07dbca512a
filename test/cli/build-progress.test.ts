// The build's progress bar: drawn on a terminal once a build takes longer than the quiet
// time, cleared at the end so the ready line stays last; pipes get nothing.
import t from 'tap'
import { showBuildProgress } from '../../src/cli/build-progress.js'
import { publishedProgress } from '../../src/fake/store/progress.js'

const terminal = (isTTY: boolean) => {
  const written: string[] = []
  return { written, stream: { isTTY, columns: 100, write: (text: string) => written.push(text) } }
}

t.test('draws a bar on a terminal while a slow build runs, and clears it when the build ends', async (t) => {
  const { written, stream } = terminal(true)
  const stop = showBuildProgress(stream, { quietMs: 0 })
  t.teardown(stop)
  const progress = publishedProgress('xl')
  t.ok(progress, 'someone listens, so the build publishes')
  progress?.(0)
  progress?.(0.5)
  const drawn = written.join('')
  t.match(drawn, /jobboard-kit: building the xl board \[[=-]+\] \d+%/)
  progress?.(1)
  const ESC = String.fromCharCode(27)
  t.ok([`${ESC}[2K`, `${ESC}[0K`, `${ESC}8`].some((code) => written.at(-1)?.includes(code)), 'the last thing written clears the bar or puts the cursor back')
  const after = written.length
  stop()
  progress?.(0.3)
  t.equal(written.length, after, 'nothing is drawn once stopped')
})

t.test('a build within the quiet time shows nothing', async (t) => {
  const { written, stream } = terminal(true)
  const stop = showBuildProgress(stream, { quietMs: 60_000 })
  t.teardown(stop)
  const progress = publishedProgress('default')
  progress?.(0)
  progress?.(0.9)
  progress?.(1)
  t.same(written, [])
})

t.test('a pipe gets nothing, and a build nobody listens to publishes nothing', async (t) => {
  const { written, stream } = terminal(false)
  const stop = showBuildProgress(stream, { quietMs: 0 })
  t.equal(publishedProgress('large'), undefined, 'a pipe does not listen')
  stop()
  t.same(written, [])
})
