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

/** Patterns of `because`: a deviation the kit let through, and a legal one it failed. */
export const NOT_CAUGHT = /^not caught/
const FALSE_ALARM = /^legal \(.*\), but the kit did not pass it/

/** None today: the last (files and applications only reading their link tells apart) closed by the links read in turn (src/contract/in-turn.ts). */
export const FINDINGS: readonly Finding[] = []

/** The finding that names an unexplained pair, if one does. */
export const findingOf = (name: string, why: string): Finding | undefined => FINDINGS.find((f) => f.pairs.test(name) && (f.because === undefined || f.because.test(why)))

export { FALSE_ALARM }
