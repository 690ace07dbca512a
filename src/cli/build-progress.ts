// A progress bar on stderr while a board is built, for a person at a terminal: drawn by
// cli-progress once a build has taken more than a second, cleared when it ends, so the
// ready line stays the last line. Pipes (tests, CI) get nothing.
import { subscribe, unsubscribe } from 'node:diagnostics_channel'
import { SingleBar } from 'cli-progress'
import { BUILD_PROGRESS, type BuildProgress } from '../fake/store/progress.js'

/** A build shorter than this shows no bar. */
const QUIET_MS = 1000

/** Draws build progress on `stream` while subscribed; answers the function that stops it. */
export function showBuildProgress(stream: { write(text: string): unknown; isTTY?: boolean }, { quietMs = QUIET_MS } = {}): () => void {
  if (!stream.isTTY) return () => {}
  let started: number | undefined
  let bar: SingleBar | undefined
  const stop = () => {
    bar?.stop()
    bar = undefined
    started = undefined
  }
  const onMessage = (message: unknown) => {
    const { scenario, share, done } = message as BuildProgress
    if (done) return stop()
    const now = performance.now()
    started ??= now
    if (!bar && now - started >= quietMs) {
      bar = new SingleBar({
        stream: stream as NodeJS.WriteStream,
        format: `jobboard-kit: building the ${scenario} board [{bar}] {percentage}%`,
        clearOnComplete: true,
        hideCursor: false,
        fps: 10,
      })
      bar.start(100, 0)
    }
    bar?.update(Math.floor(share * 100))
  }
  subscribe(BUILD_PROGRESS, onMessage)
  return () => {
    stop()
    unsubscribe(BUILD_PROGRESS, onMessage)
  }
}
