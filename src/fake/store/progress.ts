// The channel a board's build reports its progress on, so that whoever started the
// process (the CLI) can draw it without the store, the board or the app knowing about
// terminals. Nothing is published when nobody listens.
import { channel } from 'node:diagnostics_channel'

export const BUILD_PROGRESS = 'jobboard-kit:build-progress'

export interface BuildProgress {
  scenario: string
  /** The share of the build done, 0..1. */
  share: number
  /** True once, when the build is over. */
  done: boolean
}

/**
 * The channel, looked up once: Node keeps one channel per name for the process, and every
 * board's build (each account's first request) asked for it by name again.
 */
const progress = channel(BUILD_PROGRESS)

/** A progress callback for Store.generate that publishes on BUILD_PROGRESS, or undefined when nobody listens. */
export function publishedProgress(scenario: string): ((share: number) => void) | undefined {
  if (!progress.hasSubscribers) return undefined
  return (share) => progress.publish({ scenario, share, done: share >= 1 } satisfies BuildProgress)
}
