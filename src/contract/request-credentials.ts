// What a request of the kit carries as its Authorization (src/contract/http.ts's client):
// the credentials given, none, deliberately wrong ones, the given user with a wrong
// password, or the given credentials sent another way than the spec's HTTP Basic
// (AUTH_FORMS); the header each makes, and whose request it is for the rate limit.
import { Buffer } from 'node:buffer'
import type { ContractSettings } from './settings.js'

/**
 * What a request's Authorization is: the credentials given, none, deliberately wrong ones,
 * the given user with a wrong password; or the given credentials sent another way than
 * "HTTP Basic authentication with the form `<username>:<password>`" (AUTH_FORMS).
 */
export type Credentials = 'given' | 'none' | 'wrong' | 'wrong-password' | AuthForm

/**
 * The ways the spec's one authentication can be sent otherwise, derived from its sentence
 * ("All endpoints use HTTP Basic authentication with the form `<username>:<password>`."): its
 * scheme (another scheme: a Bearer token of the same credentials, Digest, a value of no
 * scheme at all), its encoding (Basic whose base64 does not decode), its form (Basic of the
 * user and password without the colon), and the case of the scheme's name, which RFC 9110
 * §11.1 makes case-insensitive: `basic` is Basic, and must be accepted. Each header carries
 * the account's own user and password where the form has room for them, so that a
 * deployment that reads them anyway is caught letting them in.
 */
export const AUTH_FORMS = {
  bearer: { words: 'a Bearer token', accepted: false, header: (user: string, password: string) => `Bearer ${b64(`${user}:${password}`)}` },
  digest: {
    words: 'Digest credentials',
    accepted: false,
    header: (user: string) => `Digest username="${user}", realm="jobboard", nonce="0a4f113b", uri="/api/v1", response="6629fae49393a05397450978507c4ef1"`,
  },
  garbage: { words: 'an Authorization of no scheme', accepted: false, header: (user: string, password: string) => `${user}:${password}` },
  'malformed-base64': { words: 'Basic whose base64 does not decode', accepted: false, header: (user: string, password: string) => `Basic ${b64(`${user}:${password}`).replace(/=+$/, '').slice(0, -1)}!*` },
  'no-colon': { words: 'Basic of the user and password without the colon', accepted: false, header: (user: string, password: string) => `Basic ${b64(`${user}${password}`)}` },
  'lower-case-scheme': { words: 'the scheme name in lower case (basic)', accepted: true, header: (user: string, password: string) => `basic ${b64(`${user}:${password}`)}` },
} as const
export type AuthForm = keyof typeof AUTH_FORMS

/** How the summary and the report name what a request carried. */
export const CREDENTIAL_WORDS: Readonly<Record<Exclude<Credentials, 'given'>, string>> = {
  none: 'no credentials',
  wrong: 'wrong credentials',
  'wrong-password': 'wrong password',
  ...(Object.fromEntries(Object.entries(AUTH_FORMS).map(([form, { words }]) => [form, words])) as Record<AuthForm, string>),
}

const WRONG = { username: 'jobboard-kit-contract', password: 'not-the-password' }

function b64(text: string): string {
  return Buffer.from(text, 'utf8').toString('base64')
}

function basic(username: string, password: string): string {
  return `Basic ${b64(`${username}:${password}`)}`
}

/** The Authorization header of a request with these credentials; undefined when it carries none. */
export function authorizationOf(credentials: Credentials, { username, password }: Pick<ContractSettings, 'username' | 'password'>): string | undefined {
  if (credentials === 'given' && username !== undefined && password !== undefined) return basic(username, password)
  if (credentials === 'wrong') return basic(WRONG.username, WRONG.password)
  if (credentials === 'wrong-password' && username !== undefined) return basic(username, password === WRONG.password ? `${WRONG.password}!` : WRONG.password)
  if (credentials in AUTH_FORMS && username !== undefined && password !== undefined) return AUTH_FORMS[credentials as AuthForm].header(username, password)
  return undefined
}

/** Whose request it is, for the rate limit and the ledger: the account's, the wrong user's, or nobody's. */
export function userOf(credentials: Credentials, username: string | undefined): string | undefined {
  // a legal form of the given credentials is the account's request: it spends the account's window
  if (credentials in AUTH_FORMS) return AUTH_FORMS[credentials as AuthForm].accepted ? username : undefined
  return credentials === 'given' || credentials === 'wrong-password' ? username : credentials === 'wrong' ? WRONG.username : undefined
}
