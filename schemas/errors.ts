// The error bodies: every error answer is `{status, message}` with `status` equal to
// the HTTP status (see docs/behaviour.md for the codes the spec leaves open).
import { anyErrorBody, errorBody } from './common.js'

export const unauthorizedBody = errorBody(401)
export const notFoundBody = errorBody(404)
export const preconditionFailedBody = errorBody(412)
export const tooManyRequestsBody = errorBody(429)
export { anyErrorBody }
