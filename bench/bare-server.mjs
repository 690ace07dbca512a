// A bare Fastify server as a user writes one to compare a start against: one route, on a
// free port, its URL on stdout. bench/start-as-user.ts spawns it beside `jobboard-kit serve`.
import Fastify from 'fastify'

const app = Fastify()
app.get('/', async () => ({ hello: 'world' }))
const url = await app.listen({ host: '127.0.0.1', port: 0 })
console.log(`listening on ${url}`)
