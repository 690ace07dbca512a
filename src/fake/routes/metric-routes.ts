// metrics/list.
import type { FastifyInstance } from 'fastify'
import { metricsAnswer } from '../../../schemas/index.js'
import { answer } from './schemas.js'

export default async function metrics(app: FastifyInstance): Promise<void> {
  app.get(
    '/metrics/list',
    {
      config: { answerCache: 'month' },
      schema: {
        operationId: 'listMetrics',
        summary: 'List metrics',
        description: 'Every metric of the board with its monthly totals, newest month first. Not paged.',
        response: { 200: answer('Every metric with its monthly totals, newest month first.', metricsAnswer) },
      },
    },
    async (request) => ({ status: 200, metrics: request.board.store.metricsAnswer() }),
  )
}
