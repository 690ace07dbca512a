// candidates/list, candidates/details/{id} and the candidate file downloads.
import type { FastifyInstance } from 'fastify'
import { candidate, idParams, listEnvelope, pagedEnvelope, pagedQuery } from '../../../schemas/index.js'
import { FILE_KINDS } from '../store/record-links.js'
import type { IdParams, PagedQuery } from '../../core/types.js'
import { detailAnswer, OCTET_STREAM, pageAnswer, sendDownload, TIMESHEET } from './reply.js'
import { answer, download, withExtras } from './schemas.js'

export default async function candidates(app: FastifyInstance): Promise<void> {
  const record = withExtras(app, 'candidate', candidate)
  app.get<{ Querystring: PagedQuery }>(
    '/candidates/list',
    {
      config: { answerCache: 'revision' },
      schema: {
        operationId: 'listCandidates',
        summary: 'List candidates',
        description: 'The candidates, newest first, optionally only those changed since `since`. Paged with `page` and `next_page` when the board pages candidates (the spec does not show it; docs/behaviour.md).',
        querystring: pagedQuery,
        response: { 200: answer('A page of candidates, newest first.', pagedEnvelope(record)) },
      },
    },
    async (request) =>
      pageAnswer(request, request.board.store.candidateList(request.query), 'candidates/list', request.query, {
        paged: request.board.scenario.behaviour.pageCandidates,
      }),
  )

  app.get<{ Params: IdParams }>(
    '/candidates/details/:id',
    {
      config: { answerCache: 'revision' },
      schema: {
        operationId: 'getCandidate',
        summary: 'Get one candidate',
        description: 'One candidate by id, in the list envelope: `total` 1 and `data` holding the candidate.',
        params: idParams,
        response: { 200: answer('The candidate, as the only item of `data`.', listEnvelope(record)) },
      },
    },
    async (request) => detailAnswer(request.board.store.candidate(request.params.id)),
  )

  for (const kind of FILE_KINDS) {
    app.get<{ Params: IdParams }>(
      `/candidates/${kind}/:id`,
      {
        config: { keptFile: true },
        schema: {
          operationId: `downloadCandidate${kind[0]?.toUpperCase()}${kind.slice(1)}`,
          summary: `Download a candidate's ${kind}`,
          description: `The raw file of a ${kind} whose id is taken from a candidate's \`${kind}s\`, with the spec's download headers.`,
          params: idParams,
          response: { 200: download(kind === 'timesheet' ? TIMESHEET : OCTET_STREAM, `candidate's ${kind}`) },
        },
      },
      async (request, reply) => {
        // the request's account's board: another account's records and files are not this one's
        const { board } = request
        const behaviour = board.scenario.behaviour
        const type = { timesheet: behaviour.timesheetContentType, resume: behaviour.resumeContentType, document: behaviour.documentContentType }[kind]
        return sendDownload(reply, board, kind, request.params.id, type)
      },
    )
  }
}
