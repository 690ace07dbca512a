// The new knobs as serve flags: an integer choice (--auth-status) arrives as a number, an
// object (--extra-fields) as JSON; a bad value stops serve with exit 2 naming the flag.
import t from 'tap'
import { basic } from '../helpers/board.js'
import { runToEnd, serve } from '../helpers/cli.js'

t.test('--auth-status and --extra-fields take effect over a socket', async (t) => {
  const { url } = await serve(t, ['--auth-status', '403', '--extra-fields', '{"candidate":{"crm_ref":{"type":"integer","example":4821}}}'])
  t.equal((await fetch(`${url}/api/v1/metrics/list`)).status, 403)
  const detail = (await (await fetch(`${url}/api/v1/candidates/details/1`, { headers: { authorization: basic() } })).json()) as { data: Array<{ crm_ref: unknown }> }
  t.match(String(detail.data[0]?.crm_ref), /^[1-9][0-9]{3}$/)
})

t.test('a bad knob value exits 2 naming the flag', async (t) => {
  for (const [args, reason] of [
    [['--auth-status', '402'], /--auth-status.*401, 403/],
    [['--extra-fields', '{crm'], /--extra-fields.*expected JSON/],
    [['--extra-fields', '{"candidate":{"name":{"type":"string","example":"x"}}}'], /--extra-fields\.candidate.*field named "name"/],
  ] as const) {
    const { code, stderr } = await runToEnd(['serve', '--port', '0', ...args])
    t.equal(code, 2, args.join(' '))
    t.match(stderr, reason)
  }
})
