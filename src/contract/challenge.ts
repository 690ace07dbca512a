// A 401's WWW-Authenticate, read as RFC 9110 §11.6.1 writes it and held to what the RFCs
// "HTTP Basic authentication" brings in require of it: it is there (RFC 9110 §11.6.1), it
// holds a challenge for Basic (RFC 9110 §15.5.2: one "applicable to the target resource"),
// whose realm (RFC 7617 §2: REQUIRED) is a quoted-string (RFC 9110 §11.5). What the RFCs
// allow passes: names and the scheme in any case, a charset, other challenges beside it,
// whitespace around "=" and ",". wire.ts holds every 401 of a run (and of a proxy) to it.
import { quotedAt, tokenAt } from './grammar.js'

/** One challenge of a WWW-Authenticate (RFC 9110 §11.3): its scheme, its parameters by lower-case name, or a token68. */
export interface Challenge {
  scheme: string
  params: Map<string, { value: string; quoted: boolean }>
  token68?: string
}

/**
 * WWW-Authenticate read by RFC 9110 §11.6.1 (`#challenge`; a challenge is `auth-scheme [ 1*SP
 * ( token68 / #auth-param ) ]`, an auth-param `token BWS "=" BWS ( token / quoted-string )`):
 * several challenges in one field, names in any case, whitespace around `=` and `,`.
 */
export function parseChallenges(header: string): { challenges: Challenge[]; problems: string[] } {
  const challenges: Challenge[] = []
  const problems: string[] = []
  let i = 0
  const space = () => {
    while (header[i] === ' ' || header[i] === '\t') i++
  }
  const token = () => {
    const { value, end } = tokenAt(header, i)
    i = end
    return value
  }
  let current: Challenge | undefined
  while (problems.length === 0) {
    while (header[i] === ' ' || header[i] === '\t' || header[i] === ',') i++
    if (i >= header.length) break
    const name = token()
    if (name === '') {
      problems.push(`${JSON.stringify(header.slice(i, i + 20))} where a scheme or a parameter must come`)
      break
    }
    const after = i
    space()
    if (header[i] !== '=') {
      current = { scheme: name, params: new Map() }
      challenges.push(current)
      // a token68 after the scheme (base64 and the like), up to a comma or the end
      const token68 = i > after ? /^[A-Za-z0-9._~+/-]+=*(?=[ \t]*(,|$))/.exec(header.slice(i))?.[0] : undefined
      if (token68 !== undefined) {
        current.token68 = token68
        i += token68.length
      }
      continue
    }
    i++
    space()
    let value: string
    let quoted = false
    if (header[i] === '"') {
      quoted = true
      const read = quotedAt(header, i)
      i = read.end
      value = read.value
      if (read.problem !== undefined) problems.push(read.problem === 'not closed' ? `the quoted value of ${name} is not closed` : `the value of ${name} holds a control character`)
    } else {
      value = token()
      if (value === '') problems.push(`the parameter ${name} has no value`)
    }
    if (current === undefined) problems.push(`the parameter ${name} comes before any scheme`)
    else if (current.params.has(name.toLowerCase())) problems.push(`the ${current.scheme} challenge gives ${name} twice (RFC 9110 §11.2: once per challenge)`)
    else current.params.set(name.toLowerCase(), { value, quoted })
  }
  return { challenges, problems }
}

/**
 * What is wrong with a 401's WWW-Authenticate, or undefined: it must be there (RFC 9110
 * §11.6.1), hold a challenge for Basic, the scheme the spec names (RFC 9110 §15.5.2: one
 * "applicable to the target resource"), whose realm (RFC 7617 §2: REQUIRED) is a
 * quoted-string (RFC 9110 §11.5). Names and the scheme in any case, a charset, other
 * challenges beside it, whitespace: allowed.
 */
export function challengeProblem(header: string | undefined): string | undefined {
  if (header === undefined || header.trim() === '') return 'a 401 without WWW-Authenticate (RFC 9110 §11.6.1: a server generating a 401 MUST send one, with at least one challenge)'
  const { challenges, problems } = parseChallenges(header)
  if (problems.length > 0) return `WWW-Authenticate ${JSON.stringify(header)} is not a list of challenges as RFC 9110 §11.6.1 writes it: ${problems[0]}`
  const basic = challenges.find((c) => c.scheme.toLowerCase() === 'basic')
  if (basic === undefined) return `WWW-Authenticate ${JSON.stringify(header)} holds no challenge for Basic, the scheme the spec names (RFC 9110 §15.5.2: at least one challenge applicable to the target resource)`
  const realm = basic.params.get('realm')
  if (realm === undefined) return `the Basic challenge ${JSON.stringify(header)} names no realm (RFC 7617 §2: the authentication parameter 'realm' is REQUIRED)`
  if (!realm.quoted) return `the Basic challenge's realm is the token ${realm.value}, not a quoted-string (RFC 9110 §11.5: a sender MUST only generate the quoted-string syntax)`
  return undefined
}
