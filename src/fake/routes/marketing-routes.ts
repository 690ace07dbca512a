// marketing/list.
import type { FastifyInstance } from 'fastify'
import { marketingRecord, pagedEnvelope, pagedQuery } from '../../../schemas/index.js'
import type { PagedQuery } from '../../core/types.js'
import { pageAnswer } from './reply.js'
import { answer, withExtras } from './schemas.js'

export default async function marketing(app: FastifyInstance): Promise<void> {
  app.get<{ Querystring: PagedQuery }>(
    '/marketing/list',
    {
      config: { answerCache: 'revision' },
      schema: {
        operationId: 'listMarketing',
        summary: 'List marketing consents',
        description: 'The marketing consent approvals and revocations, newest first, optionally only those since `since`; paged with `page` and `next_page`.',
        querystring: pagedQuery,
        response: { 200: answer('A page of marketing consent approvals and revocations, newest first.', pagedEnvelope(withExtras(app, 'marketing', marketingRecord))) },
      },
    },
    async (request) => pageAnswer(request, request.board.store.marketingList(request.query), 'marketing/list', request.query),
  )
}
