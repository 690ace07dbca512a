// GET (and HEAD) /__mock/health: the health check of `serve` and `proxy` (`jobboard-kit
// health`, the container's HEALTHCHECK). Both answer it themselves whatever --control says
// and without the control token: it shows nothing of the board or of the traffic, so a
// health check off loopback needs no secret. Not journalled (a /__mock route), no auth, no
// rate limit, and on the proxy never sent upstream: the image's check every 10 s would
// otherwise be a request nobody's client sent, spent from staging's rate limit. Kept with
// the watching layer, whose /__mock routes both servers answer, so that neither reaches
// into the other for it.
import type { FastifyInstance } from 'fastify'

export const HEALTH_PATH = '/__mock/health'

/** The answer: the same every time, nothing about what is served. */
const HEALTHY = { status: 200, message: 'ok' } as const

/** Registers GET /__mock/health (Fastify answers HEAD from it) outside the control routes and their token. */
export function registerHealth(app: FastifyInstance): void {
  app.get(HEALTH_PATH, async () => HEALTHY)
}
