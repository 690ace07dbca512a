// timesheets/list and /candidates/timesheets/download/{id}.
import type { FastifyInstance } from 'fastify'
import { idParams, pagedQuery, timesheet, twoWayPagedEnvelope } from '../../schemas/index.js'
import type { IdParams, PagedQuery } from '../types.js'
import { pageAnswer, sendDownload, TIMESHEET } from './reply.js'
import { download, errors, withExtras } from './schemas.js'

export default async function timesheets(app: FastifyInstance): Promise<void> {
  app.get<{ Querystring: PagedQuery }>(
    '/timesheets/list',
    { schema: { querystring: pagedQuery, response: { 200: twoWayPagedEnvelope(withExtras(app, 'timesheet', timesheet)), ...errors } } },
    async (request) => pageAnswer(request, app.board.store.timesheetList(request.query), 'timesheets/list', request.query, { prev: true }),
  )

  app.get<{ Params: IdParams }>(
    '/candidates/timesheets/download/:id',
    { schema: { params: idParams, response: { 200: download(TIMESHEET), ...errors } } },
    async (request, reply) =>
      sendDownload(reply, app.board.store.download('timesheet', request.params.id), app.board.scenario.behaviour.timesheetContentType),
  )
}
