// metrics/list.
import type { FastifyInstance } from 'fastify'
import { metricsAnswer } from '../../schemas/index.js'
import { errors } from './schemas.js'

export default async function metrics(app: FastifyInstance): Promise<void> {
  app.get(
    '/metrics/list',
    { schema: { response: { 200: metricsAnswer, ...errors } } },
    async () => ({ status: 200, metrics: app.board.store.metricsAnswer() }),
  )
}
