// The response serializer of every route: fast-json-stringify, as Fastify's default, with
// one change. An `anyOf` of scalars only (next_page: a URL, false or null) is written
// as JSON.stringify writes it, which gives the same bytes for the values the store
// holds, instead of resolving the branch with ajv: that compiled the whole envelope's
// schema on a route's first answer (100 ms and more) and checked the URL's format on
// every answer. The schemas themselves, and so the OpenAPI document, are unchanged.
// The build writes each serializer a fake of a shipped scenario compiles as standalone code
// (scripts/precompile.mjs), which the bundles carry (and their code cache holds): a route's
// first answer takes it instead of generating and compiling the code (docs/architecture.md,
// Start-up).
import { createHash } from 'node:crypto'
import build from 'fast-json-stringify'
import fastJsonStringify from 'fast-json-stringify/package.json' with { type: 'json' }
import { formatOption } from '../../../schemas/formats.js'
import { precompiledModule } from '../../core/validation.js'

const SCALARS = new Set(['string', 'number', 'integer', 'boolean', 'null'])

/** True for a schema that can only describe a scalar: no object or array can match it. */
function scalarOnly(branch: unknown): boolean {
  if (branch === null || typeof branch !== 'object') return false
  const node = branch as Record<string, unknown>
  if ('properties' in node || 'items' in node || 'anyOf' in node || 'oneOf' in node || 'allOf' in node || '$ref' in node) return false
  if ('const' in node) return node.const === null || typeof node.const !== 'object'
  const types = [node.type].flat()
  return types.length > 0 && types.every((type) => typeof type === 'string' && SCALARS.has(type))
}

/** A copy of `schema` with every anyOf of scalars left to JSON.stringify. */
export function withPlainScalars(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withPlainScalars)
  if (schema === null || typeof schema !== 'object') return schema
  const node = schema as Record<string, unknown>
  if (Array.isArray(node.anyOf) && node.anyOf.every(scalarOnly)) {
    const { anyOf: _branches, ...rest } = node
    // with no type left, fast-json-stringify writes the value with JSON.stringify
    return Object.fromEntries(Object.entries(rest).filter(([key]) => key === 'description'))
  }
  return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, withPlainScalars(value)]))
}

/**
 * Fastify's serializer compiler for the fake's routes. Each serializer is built when its
 * route first answers with that status, not when the app starts: most of a fake's 60-odd
 * (route, status) pairs never answer in a test file, and building them all cost start-up.
 */
export function serializerCompiler({ schema }: { schema: unknown }): (data: unknown) => string {
  let serialize: ((data: unknown) => string) | undefined
  return (data) => {
    serialize ??= compiled(schema)
    return serialize(data)
  }
}

/** Serializers compiled in this process, by their schema's text: at most this many. */
const COMPILED_MAX = 512
/**
 * The process's compiled serializers, by their schema's text. A fake built after another
 * (a test file's second fake, an account's) answers its first request without compiling
 * again: 5 to 15 ms a route. It holds code made from the schemas, no board's data, so
 * fakes still share no state; it is bounded, emptied whole when full.
 */
const serializers = new Map<string, (data: unknown) => string>()

function compiled(schema: unknown): (data: unknown) => string {
  const text = JSON.stringify(schema)
  let serialize = serializers.get(text)
  if (serialize === undefined) {
    if (serializers.size >= COMPILED_MAX) serializers.clear()
    const plain = withPlainScalars(schema)
    serialize = (precompiledModule(nameOf(plain)) as ((data: unknown) => string) | undefined) ?? build(plain as Parameters<typeof build>[0], buildOptions())
    serializers.set(text, serialize)
  }
  return serialize
}

// other anyOf (none today) are still resolved with ajv, which must know the spec's formats
const buildOptions = () => ({ ajv: { formats: formatOption() } as never })

/** The file name of the precompiled serializer built from `plain` (a schema after withPlainScalars). */
const nameOf = (plain: unknown) =>
  `s-${createHash('sha256').update(`fast-json-stringify ${fastJsonStringify.version}\n`).update(JSON.stringify(plain)).digest('hex').slice(0, 32)}.cjs`

/**
 * The file name of the precompiled serializer of a route's schema: a digest of what the
 * code is built from (the schema as withPlainScalars gives it to fast-json-stringify) and
 * of the fast-json-stringify that makes and runs the code, so that code is only ever taken
 * for the very schema, the very rewrite of it and the very library it was made with.
 */
export function serializerName(schema: unknown): string {
  return nameOf(withPlainScalars(schema))
}

/**
 * The standalone code of a schema's serializer, as a CommonJS module exporting it (what the
 * build writes), or undefined when the code would need ajv at run time (an anyOf left to
 * it): such a serializer is built when first used, as before.
 */
export function serializerSource(schema: unknown): string | undefined {
  const code = build(withPlainScalars(schema) as Parameters<typeof build>[0], { ...buildOptions(), mode: 'standalone' }) as unknown as string
  if (code.includes('fast-json-stringify/lib/validator')) return undefined
  return `// fast-json-stringify's standalone code, written at build time (scripts/precompile.mjs) from a route's response schema; do not edit.\n${code}\n`
}

/** The schemas' texts this process has a serializer of: what the build reads off a fake it drove (scripts/precompile.mjs). */
export const compiledSchemaTexts = (): string[] => [...serializers.keys()]
