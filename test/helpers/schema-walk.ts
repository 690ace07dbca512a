// Walks a schema beside a valid sample and lists every value whose schema node carries
// a rule (enum, const, format, pattern): the places each schema test must break.
export interface RuledValue {
  path: Array<string | number>
  node: Record<string, unknown>
  value: unknown
}

export function ruledValues(schema: unknown, sample: unknown, path: Array<string | number> = []): RuledValue[] {
  if (schema === null || typeof schema !== 'object') return []
  const node = schema as Record<string, unknown>
  const out: RuledValue[] = []
  if ('enum' in node || 'const' in node || 'format' in node || 'pattern' in node) out.push({ path, node, value: sample })
  for (const branch of (node.anyOf as unknown[] | undefined) ?? []) {
    const b = branch as Record<string, unknown>
    if (b.format && typeof sample === 'string') out.push(...ruledValues(b, sample, path))
  }
  if (Array.isArray(sample) && node.items) {
    for (const [i, item] of sample.entries()) out.push(...ruledValues(node.items, item, [...path, i]))
  } else if (sample !== null && typeof sample === 'object' && node.properties) {
    for (const [key, child] of Object.entries(node.properties as Record<string, unknown>)) {
      if (key in (sample as object)) out.push(...ruledValues(child, (sample as Record<string, unknown>)[key], [...path, key]))
    }
  }
  return out
}

/** Values that break a node's rule, each with why. */
export function breakingValues(node: Record<string, unknown>, value: unknown): Array<{ why: string; value: unknown }> {
  const out: Array<{ why: string; value: unknown }> = []
  if (Array.isArray(node.enum)) {
    const allowed = node.enum as unknown[]
    if (typeof value === 'string') out.push({ why: 'an unlisted value', value: `${value} (unlisted)` })
    if (typeof value === 'number') out.push({ why: 'an unlisted number', value: Math.max(...(allowed as number[])) + 1 })
    if (typeof value === 'number') out.push({ why: 'the number as text', value: String(value) })
  }
  if ('const' in node) out.push({ why: 'another value', value: typeof node.const === 'number' ? node.const + 1 : `${String(node.const)}x` })
  switch (node.format) {
    case 'timestamp':
      out.push(
        { why: 'ISO 8601', value: '2026-11-22T09:30:00Z' },
        { why: 'an impossible date', value: '2026-02-30 09:30:00' },
        { why: 'hour 24', value: '2026-11-22 24:00:00' },
        { why: 'no seconds', value: '2026-11-22 09:30' },
      )
      break
    case 'job-date':
    case 'since':
      out.push(
        { why: 'seconds added', value: '2026-11-22 09:30:00' },
        { why: 'an impossible date', value: '2026-02-29 09:30' },
        { why: 'a one-digit hour', value: '2026-11-22 9:30' },
        { why: 'a UK date', value: '22/11/2026 09:30' },
      )
      break
    case 'date':
      out.push({ why: 'an impossible date', value: '2026-02-30' }, { why: 'a time added', value: '2026-11-22 00:00' })
      break
    case 'email':
      out.push({ why: 'no @', value: 'amy.pond.example.org' })
      break
    case 'uri':
      out.push({ why: 'a relative path', value: '/api/v1/candidates/details/1' }, { why: 'words', value: 'not a url' })
      break
  }
  if (typeof node.pattern === 'string' && typeof value === 'string') {
    const pattern = new RegExp(node.pattern, 'u')
    const outside = [`${value}:x`, '', ',', 'a,,b', '12.x', '-', 'x'].find((v) => !pattern.test(v))
    if (outside !== undefined) out.push({ why: 'text outside the pattern', value: outside })
  }
  return out
}

export function setAt(target: unknown, path: Array<string | number>, value: unknown): void {
  let node = target as Record<string | number, unknown>
  for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, unknown>
  node[path[path.length - 1] as string | number] = value
}

export const pathText = (path: Array<string | number>) =>
  path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? p : `.${p}`)).join('')
