// HTTP Basic credentials of the API, checked against the board's credential check
// (src/fake/board/credentials.ts): @fastify/basic-auth, with the headers already accepted
// remembered, so a known one skips the decoding and the comparison.
import basicAuth from '@fastify/basic-auth'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { boardError } from '../../core/errors.js'

export const REALM = 'jobboard-kit'

export interface Auth {
  /** Checks the credentials; rejects with the 401 the error handler sends. */
  authenticate(request: FastifyRequest, reply: FastifyReply): Promise<void>
  /** Checks the credentials in an onRequest path: `fail` with the refusal, or `next` once request.apiUser is set. */
  check(request: FastifyRequest, reply: FastifyReply, fail: (error: Error) => void, next: () => void): void
  /** The user of an Authorization header this board's credentials already accepted; undefined for any other (the fast path's check). */
  known(board: AuthBoard, header: string): string | undefined
}

/** What auth reads of a board on every request: a reset may replace the credential check. */
export interface AuthBoard {
  readonly checkCredentials: (username: string, password: string) => boolean
}

/**
 * Auth on the board of each request (request.board: its account's, chosen by its user name),
 * or on `fallback` for a request no account was chosen for yet.
 */
export async function registerAuth(app: FastifyInstance, fallback?: AuthBoard): Promise<Auth> {
  const boardOf = (request: FastifyRequest): AuthBoard => (request.board as AuthBoard | null) ?? (fallback as AuthBoard)
  await app.register(basicAuth, {
    authenticate: { realm: REALM },
    validate: (username: string, password: string, request: FastifyRequest, _reply: FastifyReply, done: (error?: Error) => void) => {
      if (!boardOf(request).checkCredentials(username, password)) return done(boardError.unauthorized(REALM, 'Wrong user name or password.'))
      request.apiUser = username
      done()
    },
  })
  // Authorization headers already accepted, per credential set (a reset may bring another;
  // each account has its own): a known header skips the decoding and the constant-time
  // comparison; an unknown one is checked in full. The last set used is kept at hand.
  const sets = new WeakMap<AuthBoard['checkCredentials'], Map<string, string>>()
  let lastFor: AuthBoard['checkCredentials'] | undefined
  let last = new Map<string, string>()
  const knownOf = (check: AuthBoard['checkCredentials']): Map<string, string> => {
    if (check === lastFor) return last
    let known = sets.get(check)
    if (known === undefined) {
      known = new Map()
      sets.set(check, known)
    }
    lastFor = check
    last = known
    return known
  }
  const knownUser = (request: FastifyRequest, header: string | undefined): string | undefined =>
    header === undefined ? undefined : knownOf(boardOf(request).checkCredentials).get(header)
  const rememberUser = (request: FastifyRequest, header: string | undefined, user: string) => {
    if (header === undefined) return
    const known = knownOf(boardOf(request).checkCredentials)
    if (known.size >= 1_000) known.clear()
    known.set(header, user)
  }
  return {
    authenticate: (request, reply) =>
      new Promise<void>((resolve, reject) => app.basicAuth(request, reply, (error?: Error) => (error ? reject(error) : resolve()))),
    known: (board, header) => knownOf(board.checkCredentials).get(header),
    check(request, reply, fail, next) {
      const header = request.headers.authorization
      const user = knownUser(request, header)
      if (user !== undefined) {
        request.apiUser = user
        return next()
      }
      app.basicAuth(request, reply, (error?: Error) => {
        if (error) return fail(error)
        rememberUser(request, header, request.apiUser)
        next()
      })
    },
  }
}
