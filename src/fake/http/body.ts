// What a request's parts must be before a handler sees them: the one JSON body parser
// (malformed text a 400; a prototype key at any depth or deep nesting a 412 naming it), JSON bodies
// validated as sent, query strings and paths coerced from text, and the API's POST
// bodies sent as application/json. Registered by src/fake/app.ts.
import type { Ajv, ValidateFunction } from 'ajv'
import type { FastifyInstance, FastifyRequest, FastifySchemaValidationError, preValidationHookHandler } from 'fastify'
import type { FastifyValidationResult } from 'fastify/types/schema.js'
import { jobIdBody, jobIdFieldBody, jobInput, jobInputLenient } from '../../../schemas/job.js'
import type { Board } from '../board/board.js'
import { BoardError, BoardInputError } from '../../core/errors.js'
import { MAY_HOLD_PROTOTYPE_KEY, prototypeKeyPath, prototypeKeyRefusal } from '../../core/prototype-keys.js'
import { compileSchema, createAjv, keepExplanation, MAX_JSON_DEPTH, TEXT_POLICY, textNestsDeeper } from '../../core/validation.js'

/**
 * Body validators look the board up on every call: a reset may bring other constrained
 * values (job/fields) or another unknown-field policy without rebuilding the routes.
 */
function bodyValidator(boardOf: (data: unknown) => Board, schema: object, url: string, refusals: Refusals): FastifyValidationResult {
  const closeOrExpire = schema === jobIdBody && /\/job\/(close|expire)$/.test(url)
  const validate = (data: unknown): boolean | { value: unknown } => {
    const board = boardOf(data)
    if (closeOrExpire && board.scenario.behaviour.closeExpireIdField === 'job_id') {
      // behaviour.closeExpireIdField: the deployment's {job_id} becomes the {id} the route reads
      const check = board.store.validators.get(jobIdFieldBody)
      const ok = check(data)
      validate.errors = check.errors as FastifySchemaValidationError[] | null | undefined
      return ok ? { value: { id: (data as { job_id: number }).job_id } } : false
    }
    const lenient = schema === jobInput && board.scenario.behaviour.unknownJobFields === 'ignore'
    const check = board.store.validators.get(lenient ? jobInputLenient : schema)
    const refused = refusals.of(check, data)
    if (refused !== undefined) {
      validate.errors = refused
      return false
    }
    const ok = check(data)
    validate.errors = check.errors as FastifySchemaValidationError[] | null | undefined
    if (!ok) {
      refusals.keep(check, data, validate.errors)
      return false
    }
    if (!lenient) return true
    const known = Object.keys(jobInput.properties)
    return { value: Object.fromEntries(Object.entries(data as object).filter(([key]) => known.includes(key))) }
  }
  validate.errors = null as FastifySchemaValidationError[] | null | undefined
  return validate as FastifyValidationResult
}

/** Refusals kept per validator: the last 8 texts, of up to 16 Ki characters each. */
const KEPT_REFUSALS = 8
const KEPT_REFUSAL_CHARS = 16 * 1024

/**
 * The refusals of the body texts refused last, per validator: a client sending the same
 * invalid body again (a resend, a retry loop) is refused with the errors ajv gave the first
 * time, and their explanation made once (keepExplanation). A validator is a pure function of
 * the parsed text (its constrained values are bound when it is compiled; a change of them
 * compiles another), and a body validator changes nothing in the data, so the errors of the
 * same text are the same. The parser tells the text of the body it parsed last (`parsed`):
 * validation follows the parse at once, and a body that is not the last parsed is validated
 * in full. Texts are compared, not hashed: a length tells most apart, and a hash of a
 * kilobyte of text costs more than comparing it.
 */
interface Refusals {
  parsed(body: unknown, text: string): void
  of(check: ValidateFunction, body: unknown): FastifySchemaValidationError[] | undefined
  keep(check: ValidateFunction, body: unknown, errors: FastifySchemaValidationError[] | null | undefined): void
}

interface Refused {
  readonly text: string
  readonly errors: FastifySchemaValidationError[]
}

function refusalMemo(): Refusals {
  let lastBody: object | undefined
  let lastText = ''
  const kept = new WeakMap<ValidateFunction, Refused[]>()
  const textOf = (body: unknown) => (body !== undefined && body === lastBody ? lastText : undefined)
  return {
    parsed(body, text) {
      const keep = typeof body === 'object' && body !== null && text.length <= KEPT_REFUSAL_CHARS
      lastBody = keep ? body : undefined
      lastText = keep ? text : ''
    },
    of(check, body) {
      const text = textOf(body)
      if (text === undefined) return undefined
      const refusals = kept.get(check)
      if (refusals === undefined) return undefined
      for (const refused of refusals) if (refused.text.length === text.length && refused.text === text) return refused.errors
      return undefined
    },
    keep(check, body, errors) {
      const text = textOf(body)
      if (text === undefined || !errors) return
      let refusals = kept.get(check)
      if (refusals === undefined) {
        refusals = []
        kept.set(check, refusals)
      }
      if (refusals.length >= KEPT_REFUSALS) refusals.shift()
      refusals.push({ text, errors: keepExplanation(errors) })
    },
  }
}

/**
 * ajv's coercion reads integers the way Number() does ("1e3", "0x10", " 7"); a query or
 * path integer must be written in plain digits, so those are refused first.
 */
function textValidator(boardOf: (data: unknown) => Board, compile: () => ValidateFunction, schema: object): FastifyValidationResult {
  // compiled on the route's first request: most routes of a fake never see one
  let compiled: ValidateFunction | undefined
  const properties = (schema as { properties?: Record<string, { type?: string }> }).properties ?? {}
  const integers = Object.keys(properties).filter((key) => properties[key]?.type === 'integer')
  const validate = (data: Record<string, unknown>): boolean => {
    const bad = integers.filter((key) => typeof data?.[key] === 'string' && !/^-?[0-9]+$/.test(data[key] as string))
    if (bad.length > 0) {
      validate.errors = bad.map((key) => ({ keyword: 'type', instancePath: `/${key}`, schemaPath: `#/properties/${key}/type`, params: { type: 'integer' }, message: 'must be integer' }))
      return false
    }
    compiled ??= compile()
    const coercing = compiled
    let ok = coercing(data)
    // behaviour.malformedSince "ignore": a since that alone is wrong is dropped, and the whole list answered
    if (!ok && boardOf(data).scenario.behaviour.malformedSince === 'ignore' && coercing.errors?.every((e) => e.instancePath === '/since')) {
      delete data.since
      ok = coercing(data)
    }
    validate.errors = coercing.errors as FastifySchemaValidationError[] | null | undefined
    return ok
  }
  validate.errors = null as FastifySchemaValidationError[] | null | undefined
  return validate as FastifyValidationResult
}

/**
 * The one JSON body parser, of the API and the control API alike: malformed text is a
 * 400; nesting deeper than MAX_JSON_DEPTH, or a `__proto__`, `constructor` or
 * `prototype` key at any depth, a 412 naming it; "not valid JSON" is said only of text
 * that is not.
 */
const parseJson = (refusals: Refusals) => (request: FastifyRequest, text: string | Buffer, done: (error: Error | null, body?: unknown) => void): void => {
  const body = typeof text === 'string' ? text : text.toString('utf8')
  // the journal shows the body as sent, refused or not (a reference: no copy)
  request.rawBody = body
  if (body.trim().length === 0) {
    done(new BoardError('MALFORMED_BODY', 'The body is empty; a JSON object is required.'))
    return
  }
  let parsed: unknown
  try {
    parsed = JSON.parse(body)
  } catch {
    done(new BoardError('MALFORMED_BODY', 'The body is not valid JSON.'))
    return
  }
  if (textNestsDeeper(body)) {
    done(new BoardInputError('', `The body nests deeper than ${MAX_JSON_DEPTH} levels; no input of the fake does.`))
    return
  }
  const poisoned = MAY_HOLD_PROTOTYPE_KEY.test(body) ? prototypeKeyPath(parsed) : undefined
  if (poisoned !== undefined) {
    done(new BoardInputError(poisoned, prototypeKeyRefusal('The body', poisoned, 'no field of the API or the control API has that name')))
    return
  }
  refusals.parsed(parsed, body)
  done(null, parsed)
}

/**
 * The coercing validators of query strings and paths, by schema object (the route schemas'
 * querystring and params are the module-level objects of schemas/), and the one ajv
 * instance for those not precompiled: compiled once per process, not once per fake (a
 * later fake's first request compiled its query's validator again, 2-3 ms). Why at module
 * level: a compiled validator is a pure function of its frozen schema and reads no board
 * (the constrained lists reach the bodies only, through each store's validators); it is
 * called synchronously and its errors read at once, as one fake's requests already share it.
 */
const TEXT_VALIDATORS = new WeakMap<object, ValidateFunction>()
let textAjv: Ajv | undefined

function textCompiled(schema: object): ValidateFunction {
  let compiled = TEXT_VALIDATORS.get(schema)
  if (compiled === undefined) {
    compiled = compileSchema(TEXT_POLICY, schema, () => (textAjv ??= createAjv(TEXT_POLICY)))
    TEXT_VALIDATORS.set(schema, compiled)
  }
  return compiled
}

/**
 * The validator compiler and the JSON body parser of an app. Its routes serve several
 * boards (every fake of a shape, every account of a fake: src/fake/shared-app.ts), so a
 * validator, given the data alone, finds the request's board by its parts, tied to it
 * before validation (a validator never sees two requests' parts at once, but a part is the
 * key, so no ordering is relied upon); `fallback` for data no request part is.
 */
export function registerBodies(app: FastifyInstance, fallback: Board): void {
  const validating = new WeakMap<object, Board>()
  const boardOf = (data: unknown) => (typeof data === 'object' && data !== null ? validating.get(data) : undefined) ?? fallback
  app.addHook('preValidation', (request, _reply, done) => {
    for (const part of [request.body, request.query, request.params]) if (typeof part === 'object' && part !== null) validating.set(part, request.board)
    done()
  })
  // query strings and paths are text: coerce them; JSON bodies are validated as sent
  const refusals = refusalMemo()
  app.setValidatorCompiler(({ schema, httpPart, url }) => (httpPart === 'body' ? bodyValidator(boardOf, schema, url, refusals) : textValidator(boardOf, () => textCompiled(schema), schema)))
  // JSON is the only body the API and the control API take
  app.removeContentTypeParser('text/plain')
  app.removeContentTypeParser('application/json')
  app.addContentTypeParser('application/json', { parseAs: 'string' }, parseJson(refusals))
}

/** The spec: POST bodies are JSON sent as application/json; a body in another type (or none) is refused as such. */
export const requireJson: preValidationHookHandler = (request, _reply, done) => {
  if (request.method === 'POST' && !/^application\/json\s*(;|$)/i.test(request.headers['content-type'] ?? '')) {
    return done(new BoardError('UNSUPPORTED_MEDIA_TYPE', 'The body must be JSON, sent with Content-Type: application/json.'))
  }
  done()
}
