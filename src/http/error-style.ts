// How this board sends its errors, from its behaviour knobs: the HTTP status of 404 and
// 412 bodies (errorHttpStatus), the body type of unknown ids, 429s and auth refusals,
// and the status and challenge of an auth refusal. errors.ts sends what this decides.
import type { Board } from '../board.js'
import type { ErrorAnswer, ErrorPolicy, ErrorStyle } from '../core/errors.js'
import { API_PREFIX } from '../store/links.js'

export function errorPolicy(board: Board): ErrorPolicy {
  return (answer: ErrorAnswer, request): ErrorStyle => {
    const behaviour = board.scenario.behaviour
    const inApi = request.url.startsWith(`${API_PREFIX}/`)
    const plain: ErrorStyle = { status: answer.status, httpStatus: answer.status, body: 'json' }
    if (!inApi) return plain
    switch (answer.code) {
      case 'UNAUTHORIZED': {
        const status = behaviour.authStatus
        return { status, httpStatus: status, body: behaviour.authBody, omitHeaders: behaviour.authChallenge ? [] : ['www-authenticate'] }
      }
      case 'RATE_LIMITED':
        return { ...plain, body: behaviour.rateLimitBody }
      default: {
        const httpStatus = behaviour.errorHttpStatus === 'ok' && (answer.status === 404 || answer.status === 412) ? 200 : answer.status
        return { ...plain, httpStatus, body: answer.code === 'NOT_FOUND' ? behaviour.notFoundBody : 'json' }
      }
    }
  }
}
