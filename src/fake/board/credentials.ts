// A board's credential check: HTTP Basic credentials of the API, checked in constant time
// against every credential of the scenario (no early exit, so timing tells nothing about
// which part was wrong). Made with each board (a reset may bring other credentials); the
// request side is src/fake/http/basic-auth.ts.
import { createHash, timingSafeEqual } from 'node:crypto'
import type { Credential } from '../../core/types.js'

const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest()

export function credentialChecker(credentials: readonly Credential[]): (username: string, password: string) => boolean {
  const known = credentials.map((c) => digest(`${c.username}\u0000${c.password}`))
  return (username, password) => {
    const given = digest(`${username}\u0000${password}`)
    let match = false
    for (const candidate of known) match = timingSafeEqual(candidate, given) || match
    return match
  }
}
