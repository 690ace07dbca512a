// The public page of a job, the URL job/add answers with: outside /api/v1, no auth.
// 200 while published, 200 saying applications are closed once expired, 404 once
// closed or deleted (and for ids never made).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { id as idSchema } from '../../../schemas/common.js'

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string)

const page = (title: string, body: string) =>
  `<!doctype html>\n<html lang="en-GB"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>` +
  `<body><main>${body}</main></body></html>\n`

function notFound(reply: FastifyReply): FastifyReply {
  return reply.code(404).type('text/html; charset=utf-8').send(page('Job not found', '<h1>Job not found</h1><p>This job is not on the board.</p>'))
}

/** The job pages, of the board `boardOf` gives for a request: the fake's first account's (the app's routes may serve several fakes). */
export default async function publicPages(app: FastifyInstance, boardOf: (request: FastifyRequest) => FastifyInstance['board']): Promise<void> {
  const handler = async (request: FastifyRequest<{ Params: { id: string } }>, reply: FastifyReply) => {
    // an id as the API's id schema has it; anything else is a page that is not there
    const id = /^[1-9][0-9]*$/.test(request.params.id) ? Number(request.params.id) : NaN
    const view = id <= idSchema.maximum ? boardOf(request).store.jobView(id) : undefined
    if (!view || view.state === 'unpublished') return notFound(reply)
    const { job, state } = view
    const status =
      state === 'expired'
        ? '<p class="status closed">Applications for this job are closed.</p>'
        : `<p class="status open">Accepting applications${job.closing_date ? ` until ${escapeHtml(job.closing_date)}` : ''}.</p>`
    const body =
      `<h1>${escapeHtml(job.job_title)}</h1>` +
      `<p class="meta">${escapeHtml(job.job_location)} · ${escapeHtml(job.job_type)} · ${escapeHtml(job.contract_type)} · ${escapeHtml(job.salary_visible)}</p>` +
      status +
      `<p>${escapeHtml(job.job_description)}</p><p class="reference">Reference ${escapeHtml(job.job_reference)}</p>`
    return reply.type('text/html; charset=utf-8').send(page(job.job_title, body))
  }
  app.get<{ Params: { id: string } }>('/jobs/:id', handler)
  app.get<{ Params: { id: string; '*': string } }>('/jobs/:id/*', handler)
}
