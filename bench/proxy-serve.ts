// The servers of the proxy's rounds (bench/proxy.ts), in a process of their own so the
// load generator and the upstream take none of their CPU: `upstream` answers a list page
// of the fake to every request (`upstream distinct`: other bytes each time); `fronts URL` starts the bare pass-through and the proxy
// in front of URL. Prints one line of JSON with their URLs; runs until SIGTERM. By hand,
// for a profile: node --cpu-prof --import tsx bench/proxy-serve.ts fronts http://127.0.0.1:PORT
import { listPage, startFronts, startUpstream } from './proxy.js'

const [role, to] = process.argv.slice(2)
let close: () => unknown
if (role === 'upstream') {
  const upstream = await startUpstream(await listPage(), to === 'distinct')
  close = upstream.close
  process.stdout.write(`${JSON.stringify({ upstream: upstream.url })}\n`)
} else {
  const fronts = await startFronts(to as string)
  close = fronts.close
  process.stdout.write(`${JSON.stringify({ bare: fronts.bareUrl, proxy: fronts.proxyUrl })}\n`)
}
const stop = () => void Promise.resolve(close()).then(() => process.exit(0))
process.once('SIGTERM', stop)
process.once('SIGINT', stop)
