// `jobboard-kit health`: asks a running fake or proxy for its health route (HEAD
// /__mock/health: answered by `serve` and `proxy` themselves whatever --control says, no
// token, no auth, no rate limit, not in the request journal, never sent upstream by the
// proxy) and exits 0 when it answers 200 within the timeout, 1 otherwise. It is the
// container's HEALTHCHECK (Containerfile): the image is the executable alone, with no curl or
// wget to ask with.
import { type Command, Option } from 'commander'
import { HEALTH_PATH } from '../watch/health-route.js'
import type { CommandIo } from './io.js'

/** Where the fake or proxy of this environment listens: JOBBOARD_PORT, as serve and proxy read it, on the loopback. */
const localUrl = (env: NodeJS.ProcessEnv) => `http://127.0.0.1:${env.JOBBOARD_PORT || '4010'}${HEALTH_PATH}`

export function addHealthCommand(cli: Command, io: CommandIo, done: (code: number) => void): void {
  cli
    .command('health')
    .description(`Exit 0 when a fake or proxy answers HEAD ${HEALTH_PATH} with 200, else 1: the container's health check.`)
    .option('--url <url>', `what to ask (default: http://127.0.0.1:$JOBBOARD_PORT${HEALTH_PATH}, port 4010 without it)`)
    .addOption(new Option('--timeout <ms>', 'milliseconds to wait for the answer').default(2000).argParser((value) => Number.parseInt(value, 10)))
    .action(async ({ url, timeout }: { url?: string; timeout: number }) => {
      const target = url ?? localUrl(io.env)
      let code = 1
      try {
        const answer = await fetch(target, { method: 'HEAD', signal: AbortSignal.timeout(timeout > 0 ? timeout : 2000) })
        code = answer.status === 200 ? 0 : 1
        ;(code === 0 ? io.stdout : io.stderr).write(`jobboard-kit: ${target} answered ${answer.status}\n`)
      } catch (error) {
        io.stderr.write(`jobboard-kit: ${target} did not answer: ${(error as Error).message}\n`)
      }
      done(code)
      io.exit(code)
    })
}
