// What the proxy made of an answer, kept to be used again when the same answer comes
// again: a polling client gets the same bytes time after time, and decoding them,
// rewriting their links, parsing them and holding them to the schemas gave the same
// result the last time. An answer is the same when its request's method, URL and origin
// (what the link rewrite writes), its status, the headers the checks read
// (CHECKED_HEADERS, and how many field lines each came on) and every byte of its body are; the bytes are compared, not
// digested. What is kept is what follows from the answer alone (the bytes sent, the parse,
// judgeAlone's judgement under one binding, the profile's points): the rules across
// answers, the verdict and the journal still see every answer (judged-traffic.ts). Bounded: at
// most MEMO_ENTRIES answers and MEMO_BYTES of their bytes and parses, the least recently
// used go; an answer past an eighth of it is not kept (a polled page is a few KB).
import { type AnswerJudgement, CHECKED_HEADERS } from '../contract/answer.js'

/** Answers kept at most, and their bytes (as sent and as rewritten, and their parse, counted as PARSE_FACTOR times the bytes) at most. */
export const MEMO_ENTRIES = 512
export const MEMO_BYTES = 32 * 1024 * 1024
/** What a parse of JSON holds in the heap, as a multiple of its bytes (objects, strings and numbers: a rough upper estimate). */
const PARSE_FACTOR = 4

/** The memory a kept answer is counted as. */
const sizeOf = (bytes: Buffer, sent: Buffer | string) => bytes.length * (1 + PARSE_FACTOR) + (sent === bytes ? 0 : sent.length)

/** One answer as the proxy made it: its bytes and what judged-traffic.ts found in them. */
export interface KeptAnswer {
  /** The body as the upstream sent it. */
  readonly bytes: Buffer
  /** The body as the client got it (`bytes` when no link was rewritten, else the rewritten text). */
  readonly sent: Buffer | string
  /** Its size in bytes. */
  readonly sentBytes: number
  /** The body as the checks read it, once read (judged-traffic.ts), and whether JSON.parse read it whole. */
  read?: { json: unknown; strict: boolean }
  /** judgeAlone's judgement, and the binding of the constrained values it was made under. */
  judged?: { binding: number; judgement: AnswerJudgement }
  /** The profile's points one answer shows (--profile). */
  points?: ReadonlyArray<{ check: string; message: string }>
}

/** Whether `chunks` (of `length` bytes in all) hold exactly `bytes`: compared piece by piece, no copy made. */
function sameBytes(chunks: readonly Buffer[], length: number, bytes: Buffer): boolean {
  if (length !== bytes.length) return false
  let at = 0
  for (const chunk of chunks) {
    if (bytes.compare(chunk, 0, chunk.length, at, at + chunk.length) !== 0) return false
    at += chunk.length
  }
  return true
}

export class AnswerMemo {
  readonly #kept = new Map<string, KeptAnswer>()
  #bytes = 0

  /** The name an answer is kept by: everything but its bytes that what is kept follows from. */
  key(method: string, url: string, origin: string, status: number, headers: Readonly<Record<string, string>>, lines: Readonly<Record<string, number>> = {}): string {
    let key = `${method} ${status} ${origin} ${url}`
    // a header's lines count too: `a, b` on one line and on two are judged apart (RFC 9110 §5.3)
    for (const name of CHECKED_HEADERS) key += `\n${lines[name] ?? 1} ${headers[name] ?? '\u0000'}`
    return key
  }

  /** The answer kept by `key` when its body is `chunks`' bytes, byte for byte. */
  find(key: string, chunks: readonly Buffer[], length: number): KeptAnswer | undefined {
    const kept = this.#kept.get(key)
    if (kept === undefined || !sameBytes(chunks, length, kept.bytes)) return undefined
    // the most recently used last: the oldest go first
    this.#kept.delete(key)
    this.#kept.set(key, kept)
    return kept
  }

  /** Keeps an answer by `key` (in place of what it held); answers it, kept or not (past the bound it is not). */
  keep(key: string, bytes: Buffer, sent: Buffer | string, sentBytes = typeof sent === 'string' ? Buffer.byteLength(sent) : sent.length): KeptAnswer {
    const kept: KeptAnswer = { bytes, sent, sentBytes }
    const size = sizeOf(bytes, sent)
    if (size > MEMO_BYTES / 8) return kept
    this.#drop(key)
    this.#kept.set(key, kept)
    this.#bytes += size
    for (const old of this.#kept.keys()) {
      if (this.#kept.size <= MEMO_ENTRIES && this.#bytes <= MEMO_BYTES) break
      this.#drop(old)
    }
    return kept
  }

  #drop(key: string): void {
    const old = this.#kept.get(key)
    if (old === undefined) return
    this.#kept.delete(key)
    this.#bytes -= sizeOf(old.bytes, old.sent)
  }
}
