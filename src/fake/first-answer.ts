// How a fake tells the code cache (src/cli/code-cache.ts) that its process has served a first
// answer: an event on \`process\`, which the bundle's loader (a module apart from the bundle,
// bin/jobboard-kit.js's or dist/lib/load.js's) listens for. The cache is written then, so a
// run killed later (SIGKILL, a CI runner's timeout) still leaves one.

/** The event on \`process\` a fake emits once it has sent its first answer. */
export const FIRST_ANSWER = 'jobboard-kit:first-answer'

/** Says that this process has served its first answer; nothing happens where no loader listens (the sources, a tsc build). */
export function servedFirstAnswer(): void {
  const events: NodeJS.EventEmitter = process
  events.emit(FIRST_ANSWER)
}
