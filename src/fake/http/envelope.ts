// Keys a deployment adds to its answers' envelopes (behaviour.envelopeKeys: `per_page` on
// a list, `code` on an error), added to the fake's JSON answers as they leave, each as
// null: the spec lists what an answer carries, not that it carries nothing else, and a
// profile records the keys a deployment showed, not their values. Added to the text the
// serializer made (before the answer cache keeps it), so a kept answer carries them too.
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { EnvelopeKind } from '../../../schemas/behaviour.js'
import type { Board } from '../board/board.js'
import { API_PREFIX } from '../store/record-links.js'

const LIST = new RegExp(`^${API_PREFIX}/(candidates|applications|timesheets|marketing)/list$`)
const DETAILS = new RegExp(`^${API_PREFIX}/(candidates|applications)/details/`)
const OPERATION = new RegExp(`^${API_PREFIX}/job/(close|expire|repost|delete)$`)

/** The kind of envelope an answer is: by the status its body says (an error) and else by its route. */
function kindOf(request: FastifyRequest, said: number): EnvelopeKind | undefined {
  if (said >= 400) return 'error'
  if (said !== 200) return undefined
  const route = request.routeOptions.url ?? ''
  if (LIST.test(route)) return 'list'
  if (DETAILS.test(route)) return 'details'
  if (route === `${API_PREFIX}/job/add`) return 'jobAdd'
  if (OPERATION.test(route)) return 'jobOperation'
  if (route === `${API_PREFIX}/metrics/list`) return 'metrics'
  return undefined
}

/** The payload with the board's added envelope keys for its kind, when it is a JSON object of the API; else as it is. */
export function withEnvelopeKeys(request: FastifyRequest, reply: FastifyReply, payload: unknown, fallback: Board): unknown {
  if (typeof payload !== 'string' || !request.url.startsWith(`${API_PREFIX}/`)) return payload
  const added = ((request.board as Board | null) ?? fallback).scenario.behaviour.envelopeKeys
  if (Object.keys(added).length === 0 || !/json/.test(String(reply.getHeader('content-type') ?? ''))) return payload
  // every JSON answer of the fake starts with its status (the serializers and sendError write it first)
  const said = /^\{"status":([0-9]{3})[,}]/.exec(payload)
  if (!said || !payload.endsWith('}')) return payload
  const kind = kindOf(request, Number(said[1]))
  const keys = kind === undefined ? undefined : added[kind]
  if (!keys || keys.length === 0) return payload
  return `${payload.slice(0, -1)}${keys.map((key) => `,${JSON.stringify(key)}:null`).join('')}}`
}
