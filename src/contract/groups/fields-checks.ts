// job/fields: read first, because its values are bound into the schemas (a candidate's
// sector_disciplines follow job_industry). The spec does not show its shape, so the kit
// looks for the six lists wherever they are (field-lists.ts) and reports where it found them.
import { FIELD_NAMES, FIELD_VALUES } from '../../../schemas/values.js'
import { check, endpoint, need, Skip } from '../checks.js'
import type { RunContext } from '../context.js'
import { excerpt, type Answer } from '../request-outcomes.js'
import { type FieldLists, findFieldLists, isStrings, valuesFrom } from '../field-lists.js'
import { isRec, succeeded } from '../records.js'
import type { Minimal } from '@tapjs/core'

/**
 * Whether a body holds text anywhere, in any shape: a string value, or the name of a member below the top level
 * (a value may be a key). "the current values of the constrained job fields" are text (the Job table types each
 * constrained field a string, "one of the … values"), and each field has one at least (each is required): a body
 * with none gives no value of any field, whatever its shape, which the spec leaves open.
 */
function holdsText(value: unknown, nested = false): boolean {
  if (typeof value === 'string') return true
  if (Array.isArray(value)) return value.some((v) => holdsText(v, true))
  return isRec(value) && Object.entries(value).some(([, v]) => nested || holdsText(v, true))
}

/** Reads job/fields' answer into the run: binds its values and notes its shape and how its values differ from the spec's. */
export function adoptFieldValues(ctx: RunContext, answer: Answer): FieldLists | undefined {
  const found = succeeded(answer) ? findFieldLists(answer.json) : undefined
  const values = valuesFrom(found)
  ctx.bindValues(values)
  if (!found) {
    ctx.observations.add({
      topic: 'job-fields',
      endpoint: 'job/fields',
      summary: "job/fields' shape is not understood: the spec's constrained values are used",
      details: { status: answer.status, body: answer.json ?? excerpt(answer) },
    })
    return undefined
  }
  ctx.observations.add({
    topic: 'job-fields',
    endpoint: 'job/fields',
    summary: `the lists are at ${found.path}, keyed ${Object.keys(found.lists).join(', ')}`,
    details: { path: found.path },
  })
  for (const name of FIELD_NAMES) {
    const spec: readonly string[] = FIELD_VALUES[name]
    const added = values[name].filter((v) => !spec.includes(v))
    const removed = spec.filter((v) => !values[name].includes(v))
    if (added.length + removed.length > 0) {
      ctx.observations.add({
        topic: 'job-fields',
        endpoint: 'job/fields',
        summary: `${name} differs from the spec's list:${added.length ? ` added ${added.join(', ')};` : ''}${removed.length ? ` gone ${removed.join(', ')}` : ''}`,
        details: { list: name, added, removed },
      })
    }
  }
  return found
}

export function fieldsGroup(root: Minimal, ctx: RunContext, found: () => FieldLists | undefined): void {
  endpoint(root, 'job/fields', (t) => {
    check(t, 'answers 200 with a JSON body whose status is 200', async (a) => {
      const answer = need(await ctx.plan.fields())
      a.ok(succeeded(answer), `HTTP status ${answer.status}, a success`, `answered HTTP ${answer.status}, not a success (2xx)`)
      const status = isRec(answer.json) ? answer.json.status : undefined
      a.ok(status === 200, 'the body carries status 200', `the body's status is ${JSON.stringify(status) ?? 'missing'}, not 200${isRec(answer.json) ? '' : ' (the body is not a JSON object)'}`)
      // its Content-Type and bytes are the "every answer" checks' (groups/wire-checks.ts)
    })
    check(t, "values the spec lists keep the spec's exact casing", async (a) => {
      need(await ctx.plan.fields())
      const lists = found()
      if (!lists) throw new Skip("the answer's shape is not understood (see the job-fields observation)")
      // values come and go (an observation); a spec value written in another casing is a different value to a client
      const problems = FIELD_NAMES.flatMap((name) => {
        const list = lists.lists[name]
        const spec: readonly string[] = FIELD_VALUES[name]
        return isStrings(list)
          ? list.flatMap((value) => {
              const meant = spec.find((s) => s !== value && s.toLowerCase() === value.toLowerCase())
              return meant === undefined || list.includes(meant) ? [] : [`${name} lists ${JSON.stringify(value)}, expected ${JSON.stringify(meant)} as the spec writes it`]
            })
          : []
      })
      a.none(problems, 'every value the spec lists is written as the spec writes it')
    })
    check(t, 'gives every constrained list, each a non-empty list of distinct strings', async (a) => {
      const answer = need(await ctx.plan.fields())
      const lists = found()
      if (!lists && succeeded(answer) && !holdsText(answer.json)) {
        return a.fail(`the answer holds no value of any constrained field, in any shape: no text in it (${excerpt(answer)})`)
      }
      // the spec does not show the shape: one the kit cannot read is an observation, not a failure
      if (!lists) throw new Skip("the answer's shape is not understood (see the job-fields observation)")
      for (const name of FIELD_NAMES) {
        const list = lists.lists[name]
        if (!isStrings(list)) a.fail(`${name} is ${list === undefined ? 'missing' : 'not a list of strings'}`)
        else if (list.length === 0) a.fail(`${name} is empty`)
        else a.ok(new Set(list).size === list.length, `${name} holds ${list.length} distinct values`, `${name} repeats a value`)
      }
    })
  })
}
