// The words of HTTP field values (RFC 9110 §5.6): a token, a quoted-string, read from a
// position of the value. The readers of Content-Disposition (wire.ts) and of WWW-Authenticate
// (challenge.ts) take their parameters' names and values with them.

/** A token (RFC 9110 §5.6.2), whole. */
export const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/
/** One character of a token. */
export const TOKEN_CHAR = /[!#$%&'*+.^_`|~0-9A-Za-z-]/

/** The token at `from` ('' when none starts there) and where it ends. */
export function tokenAt(text: string, from: number): { value: string; end: number } {
  let end = from
  while (end < text.length && TOKEN_CHAR.test(text[end] as string)) end++
  return { value: text.slice(from, end), end }
}

/**
 * The quoted-string opening at `from` (its `"`), RFC 9110 §5.6.4: qdtext or a quoted-pair up
 * to the closing quote, each quoted-pair read as the character after its backslash. Its
 * value, where it ends (past the closing quote), and what is wrong with it: not closed, or a
 * control character (other than a tab) inside.
 */
export function quotedAt(text: string, from: number): { value: string; end: number; problem?: 'not closed' | 'a control character' } {
  let value = ''
  for (let i = from + 1; i < text.length; i++) {
    const c = text[i] as string
    if (c === '\\' && i + 1 < text.length) value += text[++i]
    else if (c === '"') return { value, end: i + 1 }
    else if (c.charCodeAt(0) < 0x20 && c !== '\t') return { value, end: i, problem: 'a control character' }
    else value += c
  }
  return { value, end: text.length, problem: 'not closed' }
}
