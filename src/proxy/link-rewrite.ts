// The one change the proxy makes to what passes through (docs/proxy.md): the upstream's
// {base_url} in answer links is rewritten to the proxy's origin, so that a client that
// follows next_page, prev_page, an href, job/add's job page URL or a Location stays
// behind the proxy. In a JSON body the base is found as written and as JSON may escape
// it (`http:\/\/host`, as PHP's json_encode writes it), and only where it ends: a base
// of `http://host:80` is not rewritten inside `http://host:8080`. `--keep-links` turns
// it off. A text that holds only the plain spelling (most do) is rewritten with a
// replacement string: a replacer function called per link cost 1.4 times as much on a
// page of 51 links (issue 45; test/proxy/link-rewrite.test.ts holds both to the same text).

/** Characters that would go on the base's host, port or last path segment: after the base, none may follow. */
const CONTINUES = '(?![A-Za-z0-9._~%:-])'

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')

export interface LinkRewriter {
  /** A body's text with the upstream's base replaced by `origin`; the same string when it holds none. */
  text(text: string, origin: string): string
  /** A Location header's value, rewritten where it starts with the upstream's base. */
  location(value: string, origin: string): string
}

/** The rewriter of one upstream base (origin and path, no trailing slash). */
export function linkRewriter(base: string): LinkRewriter {
  const plain = base.replace(/\/+$/, '')
  const escaped = plain.replaceAll('/', '\\/')
  const pattern = new RegExp(`(${escapeRegExp(escaped)}|${escapeRegExp(plain)})${CONTINUES}`, 'g')
  const plainPattern = new RegExp(`${escapeRegExp(plain)}${CONTINUES}`, 'g')
  const host = new URL(plain).host
  return {
    text(text, origin) {
      // most answers hold no link at all: one search for the host decides
      if (!text.includes(host)) return text
      // both spellings: each link replaced by its own; the plain one alone: by a string (`$` written `$$`, not a part of the match)
      if (text.includes(escaped)) return text.replace(pattern, (found) => (found === escaped ? origin.replaceAll('/', '\\/') : origin))
      return text.replace(plainPattern, origin.replaceAll('$', '$$$$'))
    },
    location(value, origin) {
      return value === plain || value.startsWith(`${plain}/`) || value.startsWith(`${plain}?`) ? `${origin}${value.slice(plain.length)}` : value
    },
  }
}
