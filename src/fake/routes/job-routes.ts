// The job write API: job/add, close, expire, repost, delete, and job/fields.
import type { FastifyInstance } from 'fastify'
import { jobAddAnswer, jobFieldsAnswer, jobFieldsTopLevelAnswer, jobIdBody, jobInput, jobRepostBody, messageAnswer } from '../../../schemas/index.js'
import { links } from '../store/record-links.js'
import type { JobOperation } from '../store/store.js'
import type { JobIdBody, JobInput, JobRepostBody } from '../../core/types.js'
import { baseUrl } from '../http/origin.js'
import { answer } from './schemas.js'

const DONE: Record<Exclude<JobOperation, 'repost'>, string> = {
  close: 'has been closed (unpublished)',
  expire: 'has been expired',
  delete: 'has been deleted',
}

/** What each id operation does beyond its answer, for the document. */
const OPERATION_NOTES: Record<Exclude<JobOperation, 'repost'>, string> = {
  close: 'Its public page then answers 404.',
  expire: 'It no longer accepts applications.',
  delete: 'It is removed for good; its id then answers 404.',
}

/** What job/fields may answer, under either jobFieldsShape (an anyOf would make the serializer check enums). */
const eitherShape = {
  type: 'object',
  required: ['status'],
  properties: { ...jobFieldsAnswer.properties, ...jobFieldsTopLevelAnswer.properties },
} as const

export default async function jobs(app: FastifyInstance): Promise<void> {
  app.post<{ Body: JobInput }>(
    '/job/add',
    {
      schema: {
        operationId: 'addJob',
        summary: 'Add a job',
        description: 'Creates a job from the JSON job object, published or not as `published` says. A field that breaks its rule, such as a `salary_unit` not among the values of /job/fields, answers 412 naming it.',
        body: jobInput,
        response: { 200: answer('The job was added: `message` is the URL of its public page, `id` its id.', jobAddAnswer) },
      },
    },
    async (request) => {
      const job = request.board.store.addJob(request.body)
      return { status: 200, message: links(baseUrl(request)).jobPage(job.id), id: job.id }
    },
  )

  for (const operation of ['close', 'expire', 'delete'] as const) {
    app.post<{ Body: JobIdBody }>(
      `/job/${operation}`,
      {
        schema: {
          operationId: `${operation}Job`,
          summary: `${operation[0]?.toUpperCase()}${operation.slice(1)} a job`,
          description: `The job of \`id\` ${DONE[operation]}. ${OPERATION_NOTES[operation]}`,
          body: jobIdBody,
          response: { 200: answer(`The job ${DONE[operation]}; \`message\` says so.`, messageAnswer) },
        },
      },
      async (request) => {
        const job = request.board.store.applyJobOperation(operation, request.body.id)
        return { status: 200, message: `Job ${job.id} ${DONE[operation]}.` }
      },
    )
  }

  app.post<{ Body: JobRepostBody }>(
    '/job/repost',
    {
      schema: {
        operationId: 'repostJob',
        summary: 'Repost a job',
        description: 'Publishes the job of `id` again with new closing and expiry dates, one month later unless `closing_date` is given.',
        body: jobRepostBody,
        response: { 200: answer('The job was reposted and published again; `message` gives its new closing and expiry dates.', messageAnswer) },
      },
    },
    async (request) => {
      const job = request.board.store.applyJobOperation('repost', request.body.id, request.body.closing_date)
      return { status: 200, message: `Job ${job.id} has been reposted; it closes on ${job.closing_date} and expires on ${job.expiry_date}.` }
    },
  )

  app.get(
    '/job/fields',
    {
      config: { answerCache: 'revision' },
      schema: {
        operationId: 'getJobFields',
        summary: 'Get the allowed job field values',
        description: 'The values each constrained job field allows now (industries, types, units...). They change as the board changes: check them periodically.',
        response: { 200: answer('The values each constrained job field currently allows (under `data`, or beside `status` with behaviour.jobFieldsShape top-level).', eitherShape) },
      },
    },
    async (request) => {
      const lists = request.board.store.jobFields()
      // behaviour.jobFieldsShape: the lists under data, or beside status
      return request.board.scenario.behaviour.jobFieldsShape === 'top-level' ? { status: 200, ...lists } : { status: 200, data: lists }
    },
  )
}
