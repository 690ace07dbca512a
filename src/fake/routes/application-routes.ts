// applications/list, applications/details/{id} and applications/attachment/{id}.
import type { FastifyInstance } from 'fastify'
import { application, applicationInDetail, applicationsQuery, idParams, listEnvelope, pagedEnvelope } from '../../../schemas/index.js'
import type { ApplicationsQuery, IdParams } from '../../core/types.js'
import { detailAnswer, OCTET_STREAM, pageAnswer, sendDownload } from './reply.js'
import { answer, download, withExtras } from './schemas.js'

export default async function applications(app: FastifyInstance): Promise<void> {
  app.get<{ Querystring: ApplicationsQuery }>(
    '/applications/list',
    {
      config: { answerCache: 'revision' },
      schema: {
        operationId: 'listApplications',
        summary: 'List applications',
        description: 'The applications, newest first (highest id first), optionally only those since `since` or for one `vacancy`; paged with `page` and `next_page`.',
        querystring: applicationsQuery,
        response: { 200: answer('A page of applications, newest first (highest id first).', pagedEnvelope(withExtras(app, 'application', application))) },
      },
    },
    async (request) => pageAnswer(request, request.board.store.applicationList(request.query), 'applications/list', request.query),
  )

  app.get<{ Params: IdParams }>(
    '/applications/details/:id',
    {
      config: { answerCache: 'revision' },
      schema: {
        operationId: 'getApplication',
        summary: 'Get one application',
        description: 'One application by id, in the list envelope: `total` 1 and `data` holding the application.',
        params: idParams,
        response: { 200: answer('The application, as the only item of `data`.', listEnvelope(withExtras(app, 'application', applicationInDetail))) },
      },
    },
    async (request) => detailAnswer(request.board.store.application(request.params.id)),
  )

  app.get<{ Params: IdParams }>(
    '/applications/attachment/:id',
    {
      schema: {
        operationId: 'downloadApplicationAttachment',
        summary: "Download an application's attachment",
        description: "The raw file attached to an application, as `application/octet-stream` with the spec's download headers.",
        params: idParams,
        response: { 200: download(OCTET_STREAM, "application's attachment") },
      },
    },
    async (request, reply) => sendDownload(reply, request.board, 'attachment', request.params.id, OCTET_STREAM),
  )
}
