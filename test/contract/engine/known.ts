// The deviation engine's known findings (issue 43 item 3): the pairs it ends unexplained
// today — a deviation the kit lets through, or one the words make legal and the kit
// fails — each class with what gets through and what resolves it (another item of issue
// 43, or a fix of the kit still to make). The engine's test fails on an unexplained pair
// no finding names, and on a finding no pair matches any more (it comes off this list).
import type { Server } from './sessions.js'

export interface Finding {
  /** The pairs it names: a pattern of their names (`<server> <run>: <operator> at <site> (<group>) of <exchange>`). */
  pairs: RegExp
  /** And of why they ended unexplained, where the name alone does not say. */
  because?: RegExp
  /** In front of these servers only (both by default). */
  servers?: readonly Server[]
  /** What gets through, or what the kit fails that the words allow, and what resolves it. */
  why: string
}

const NOT_CAUGHT = /^not caught/
const FALSE_ALARM = /^legal \(.*\), but the kit did not pass it/

export const FINDINGS: readonly Finding[] = [
  {
    pairs: /: (link to another page or record at [a-z]+\[\]\.href|link to another page or record at (applicant\.)?attachment\.href|member in another case at ([a-z]+\[\]\.|applicant\.attachment\.|attachment\.)filename|link to another list at attachment\.href)/,
    because: NOT_CAUGHT,
    why: "a file, or an application, the run neither downloads (follows) nor reads listed otherwise: its name in another case, or its link to another file or application that no other listing the run reads also names, is told from the right one only by reading what it links (the kit downloads one file of each kind and follows one application link a run, each a full request under the rate limit; a file listed twice is held to one name and size, at no request)",
  },
]

/** The finding that names an unexplained pair, if one does. */
export const findingOf = (name: string, why: string): Finding | undefined => FINDINGS.find((f) => f.pairs.test(name) && (f.because === undefined || f.because.test(why)))

export { FALSE_ALARM }
