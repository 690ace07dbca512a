// Serves the second server from the command line, to try a tool on it by hand:
//   npx tsx test/helpers/other-board/serve.ts --style b --username u --password p --base-path /staging --rate-limit-window 0 [--live 5]
// prints its {base_url} and the true totals of each list, and runs until interrupted.
import { parseArgs } from 'node:util'
import { startOtherBoard } from './server.js'

const { values } = parseArgs({
  options: {
    style: { type: 'string', default: 'a' },
    username: { type: 'string', default: 'jobboard' },
    password: { type: 'string', default: 'jobboard' },
    'base-path': { type: 'string' },
    'rate-limit-window': { type: 'string', default: '900' },
    live: { type: 'string' },
    now: { type: 'string' },
    'last-page-next-page': { type: 'string' },
  },
})
if (values.style !== 'a' && values.style !== 'b') throw new Error('--style is a or b')
const board = await startOtherBoard({
  style: values.style,
  username: values.username,
  password: values.password,
  basePath: values['base-path'],
  rateLimitWindow: Number(values['rate-limit-window']),
  live: values.live === undefined ? undefined : Number(values.live),
  now: values.now,
  lastPageNextPage: ({ absent: 'absent', false: false, empty: '' } as const)[values['last-page-next-page'] as 'absent' | 'false' | 'empty'],
})
process.stdout.write(`${board.url}\n${JSON.stringify(board.counts())}\n`)
/** Closes the server, and leaves after a second whatever still holds it open. */
const stop = () => {
  setTimeout(() => process.exit(0), 1000).unref()
  void board.close().then(() => process.exit(0))
}
process.on('SIGTERM', stop)
process.on('SIGINT', stop)
