// timesheets/list and /candidates/timesheets/download/{id}.
import type { FastifyInstance } from 'fastify'
import { idParams, pagedQuery, timesheet, twoWayPagedEnvelope } from '../../../schemas/index.js'
import type { IdParams, PagedQuery } from '../../core/types.js'
import { pageAnswer, sendDownload, TIMESHEET } from './reply.js'
import { answer, download, withExtras } from './schemas.js'

export default async function timesheets(app: FastifyInstance): Promise<void> {
  app.get<{ Querystring: PagedQuery }>(
    '/timesheets/list',
    {
      config: { answerCache: 'revision' },
      schema: {
        operationId: 'listTimesheets',
        summary: 'List timesheets',
        description: 'The timesheets, newest first, optionally only those since `since`; paged both ways with `page`, `next_page` and `prev_page` (false on the first page).',
        querystring: pagedQuery,
        response: { 200: answer('A page of timesheets, newest first.', twoWayPagedEnvelope(withExtras(app, 'timesheet', timesheet))) },
      },
    },
    async (request) => pageAnswer(request, request.board.store.timesheetList(request.query), 'timesheets/list', request.query, { prev: true }),
  )

  app.get<{ Params: IdParams }>(
    '/candidates/timesheets/download/:id',
    {
      schema: {
        operationId: 'downloadTimesheet',
        summary: 'Download a timesheet',
        description: "The raw file of a timesheet by its id, as the timesheet octet-stream type with the spec's download headers; the same file as /candidates/timesheet/{id}.",
        params: idParams,
        response: { 200: download(TIMESHEET, 'timesheet') },
      },
    },
    async (request, reply) =>
      sendDownload(reply, request.board, 'timesheet', request.params.id, request.board.scenario.behaviour.timesheetContentType),
  )
}
