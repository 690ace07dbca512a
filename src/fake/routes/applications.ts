// applications/list, applications/details/{id} and applications/attachment/{id}.
import type { FastifyInstance } from 'fastify'
import { application, applicationInDetail, applicationsQuery, idParams, listEnvelope, pagedEnvelope } from '../../../schemas/index.js'
import type { ApplicationsQuery, IdParams } from '../../core/types.js'
import { detailAnswer, OCTET_STREAM, pageAnswer, sendDownload } from './reply.js'
import { answer, download, withExtras } from './schemas.js'

export default async function applications(app: FastifyInstance): Promise<void> {
  app.get<{ Querystring: ApplicationsQuery }>(
    '/applications/list',
    { config: { answerCache: 'revision' }, schema: { querystring: applicationsQuery, response: { 200: answer('A page of applications, newest first (highest id first).', pagedEnvelope(withExtras(app, 'application', application))) } } },
    async (request) => pageAnswer(request, app.board.store.applicationList(request.query), 'applications/list', request.query),
  )

  app.get<{ Params: IdParams }>(
    '/applications/details/:id',
    { config: { answerCache: 'revision' }, schema: { params: idParams, response: { 200: answer('The application, as the only item of `data`.', listEnvelope(withExtras(app, 'application', applicationInDetail))) } } },
    async (request) => detailAnswer(app.board.store.application(request.params.id)),
  )

  app.get<{ Params: IdParams }>(
    '/applications/attachment/:id',
    { schema: { params: idParams, response: { 200: download(OCTET_STREAM, "application's attachment") } } },
    async (request, reply) => sendDownload(reply, app.board, 'attachment', request.params.id, OCTET_STREAM),
  )
}
