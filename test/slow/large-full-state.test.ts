// The large scenario's full state (about 1.1 GiB: 100,000 candidates, 1,000,000
// applications) is more than PUT /__mock/state takes at any limit, or one string in V8
// holds: it is refused up front, pointing at the compact form, which round-trips (see
// large-compact-state.test.ts). Over real sockets, as `curl … | curl -T -` would send it.
// Runs in CI (`npm run test:slow`), not in `npm test`.
import { request, type IncomingMessage } from 'node:http'
import t from 'tap'
import { listening, parseAnswer, rawRequest } from '../helpers/socket.js'

const MiB = 1_048_576

const text = (response: IncomingMessage) =>
  new Promise<string>((resolve, reject) => {
    let body = ''
    response.setEncoding('utf8')
    response.on('data', (chunk: string) => {
      body += chunk
    })
    response.on('end', () => resolve(body))
    // a connection reset ends an answer without 'end'
    response.on('close', () => resolve(body))
    response.on('error', reject)
  })

t.test('the large board\'s full state, streamed from GET, is refused by PUT up front with a 413 pointing at the compact form', async (t) => {
  const source = await listening(t, { scenario: 'large' })
  const limitedAnswers: number[] = []
  const limited = await listening(t, { scenario: 'empty', requestLog: (_request, _reply, status) => limitedAnswers.push(status) })
  const widest = await listening(t, { scenario: 'empty', stateBodyLimit: 500 * MiB })
  const max = 500 * MiB
  const started = performance.now()
  // one export: its first bytes are piped into a chunked PUT (as `curl … | curl -T -`
  // sends it), and it is read on past the largest limit there is, then dropped
  const { piped, read, piping } = await new Promise<{ piped: number; read: number; piping: Promise<{ status: number; body: string }> }>(
    (resolve, reject) => {
      let read = 0
      let piped = 0
      let answered = false
      let piping: Promise<{ status: number; body: string }> | undefined
      const saving = request({ host: '127.0.0.1', port: source.port, path: '/__mock/state' }, (response) => {
        t.equal(response.statusCode, 200, 'the full state is exported, streamed')
        // started on the first bytes: the export gathers the board before it sends any
        const put = request({
          host: '127.0.0.1',
          port: limited.port,
          method: 'PUT',
          path: '/__mock/state',
          headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
        })
        // the fake closes the connection as it answers: bytes still in flight may reset it
        // and lose the answer on the way, so a PUT that ends without one settles too
        piping = new Promise((settle) => {
          put.on('response', (answer) => {
            answered = true
            text(answer).then((body) => settle({ status: answer.statusCode ?? 0, body }), () => settle({ status: 0, body: '' }))
          })
          put.on('error', () => {
            answered = true
            settle({ status: 0, body: '' })
          })
        })
        response.on('data', (chunk: Buffer) => {
          read += chunk.length
          if (!answered) {
            piped += chunk.length
            if (!put.write(chunk) && !response.isPaused()) {
              // the PUT's socket is full: wait for it, or for its answer or end (after which it takes nothing)
              response.pause()
              const events = ['drain', 'response', 'close'] as const
              const resume = () => {
                for (const event of events) put.off(event, resume)
                response.resume()
              }
              for (const event of events) put.once(event, resume)
            }
          }
          if (read > max) {
            saving.destroy()
            put.destroy()
            resolve({ piped, read, piping: piping as Promise<{ status: number; body: string }> })
          }
        })
        response.on('end', () => reject(new Error(`the full state ended at ${read} bytes, within the largest limit`)))
        response.on('close', () => {
          if (read <= max) reject(new Error(`the export stopped after ${read} bytes (${piped} piped, PUT answered: ${answered})`))
        })
      })
      saving.on('error', () => undefined)
      saving.end()
    },
  )
  t.ok(read > max, `past ${Math.round(read / MiB)} MiB read in ${Math.round((performance.now() - started) / 1000)} s, the state goes on: no limit takes it`)

  const cut = await piping
  t.same(limitedAnswers, [413], 'piped: the fake refused it at the limit')
  if (cut.status !== 0) {
    t.equal(cut.status, 413)
    t.match(JSON.parse(cut.body).message, 'over the state body limit of 16777216 bytes (16 MiB)')
    t.match(JSON.parse(cut.body).message, 'GET /__mock/state?form=compact')
  }
  t.ok(piped < 4 * 16 * MiB, `piped: refused after ${Math.round(piped / MiB)} MiB, not the whole`)

  const raw = await rawRequest(widest.port, `PUT /__mock/state HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${read}\r\n\r\n`)
  const answer = parseAnswer(raw)
  t.equal(answer.status, 413, 'with its length: refused before a byte is sent, at the largest limit')
  const message = JSON.parse(answer.body).message as string
  t.match(message, `is ${read} bytes, more than any state body limit takes`)
  t.match(message, 'GET /__mock/state?form=compact')
  t.notMatch(message, '--state-body-limit')
})
