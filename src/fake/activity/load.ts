// Reads an activity (scenarios/activity/NAME.json|yaml, a path, or an object) and checks it
// whole before anything plays: the outline, then each event against its own schema (with
// the board's constrained values), then that the times never go back. A refusal is an
// ActivityError naming the file, the line (found in the file's text) and the field.
// The checked events are expanded into steps at offsets from the board's start: an
// outage is a start and an end, a burst one step per application.
import type { ErrorObject } from 'ajv'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { basename, extname, join, resolve } from 'node:path'
import { type ACTIVITY_EVENTS, activityEvents, activityFile } from '../../../schemas/activity.js'
import { SCENARIOS_DIR } from '../../core/paths.js'
import { prototypeKeyPath, prototypeKeyRefusal } from '../../core/prototype-keys.js'
import type { ActivityEvent, ActivityFile } from '../../core/types.js'
import { explain, fieldOf, type Validators, valueNestsDeeper } from '../../core/validation.js'

/** Where the shipped activities are. */
export const ACTIVITIES_DIR = join(SCENARIOS_DIR, 'activity')
const EXTENSIONS = ['.json', '.yaml', '.yml']
/** Steps an activity may expand to (bursts count one per application): a day is bounded. */
export const MAX_STEPS = 100_000

/** An activity the fake refuses: `file` and `line` say where (line 0 when not known or given as an object), `field` what. */
export class ActivityError extends Error {
  readonly file: string
  readonly line: number
  readonly field: string

  constructor(file: string, line: number, field: string, reason: string) {
    super(`${file}${line > 0 ? `:${line}` : ''}: ${reason}`)
    this.name = 'ActivityError'
    this.file = file
    this.line = line
    this.field = field
  }
}

/** One thing that happens at one time: an event, or one part of it (an outage's end, a burst's nth application). */
export interface ActivityStep {
  /** Milliseconds from the board's start. */
  offsetMs: number
  /** The event's index in the file. */
  index: number
  event: ActivityEvent
  /** `end` for the step that ends an outage or timeouts; the application's number in a burst. */
  part?: 'start' | 'end' | number
}

export interface LoadedActivity {
  name: string
  /** The file it came from, or `(inline)`. */
  source: string
  events: number
  steps: readonly ActivityStep[]
}

/** The names of the shipped activities. */
export function activityNames(): string[] {
  if (!existsSync(ACTIVITIES_DIR)) return []
  return readdirSync(ACTIVITIES_DIR)
    .filter((f) => EXTENSIONS.includes(extname(f)))
    .map((f) => basename(f, extname(f)))
    .sort()
}

/** `+H:MM[:SS]` in milliseconds. */
export function offsetMs(offset: string): number {
  const [h = 0, m = 0, s = 0] = offset.slice(1).split(':').map(Number)
  return ((h * 60 + m) * 60 + s) * 1000
}

function locate(ref: string): string {
  if (/^[a-z0-9][a-z0-9-]*$/.test(ref)) {
    for (const extension of EXTENSIONS) {
      const named = join(ACTIVITIES_DIR, `${ref}${extension}`)
      if (existsSync(named)) return named
    }
  }
  const path = resolve(ref)
  const known = `the activities are ${activityNames().join(', ')}`
  if (!EXTENSIONS.includes(extname(path))) throw new ActivityError(ref, 0, '', `not a shipped activity (${known}) nor a .json or .yaml file.`)
  if (!existsSync(path)) throw new ActivityError(path, 0, '', `no such file (${known}).`)
  return path
}

type Yaml = typeof import('yaml')
/** The yaml package, loaded only for a YAML file or to find the line of a refusal. */
const yaml = (): Yaml => createRequire(import.meta.url)('yaml') as Yaml

/** The 1-based line of the value at `path` in the text, or of the nearest value above it that is there. */
function lineOf(text: string | undefined, path: ReadonlyArray<string | number>): number {
  if (text === undefined) return 0
  try {
    const { LineCounter, parseDocument } = yaml()
    const lines = new LineCounter()
    const document = parseDocument(text, { lineCounter: lines })
    for (let depth = path.length; depth >= 0; depth--) {
      const node = document.getIn(path.slice(0, depth), true) as { range?: [number, number, number] } | undefined
      if (node?.range) return lines.linePos(node.range[0]).line
    }
  } catch {
    // the line is a help, not the refusal: without it the field still says where
  }
  return 0
}

/** `events[3].record.email` as a path: ['events', 3, 'record', 'email']. */
const pathOf = (field: string): Array<string | number> =>
  field
    .split(/\.|\[(\d+)\]/)
    .filter((part) => part !== undefined && part !== '')
    .map((part) => (/^\d+$/.test(part) ? Number(part) : part))

function parse(path: string, text: string): unknown {
  if (extname(path) === '.json') {
    try {
      return JSON.parse(text) as unknown
    } catch (error) {
      const message = (error as Error).message
      const at = /line (\d+)/.exec(message)?.[1] ?? /position (\d+)/.exec(message)?.[1]
      const line = /line (\d+)/.test(message) ? Number(at) : at === undefined ? 0 : text.slice(0, Number(at)).split('\n').length
      throw new ActivityError(path, line, '', `not valid JSON: ${message}`)
    }
  }
  const { LineCounter, parseDocument } = yaml()
  const lines = new LineCounter()
  const document = parseDocument(text, { lineCounter: lines })
  const problem = document.errors[0]
  if (problem) throw new ActivityError(path, problem.linePos?.[0]?.line ?? 0, '', `not valid YAML: ${problem.message.split('\n')[0]}`)
  try {
    // aliases are bounded: a few lines of YAML must not expand to gigabytes
    return document.toJS({ maxAliasCount: 100 }) as unknown
  } catch (error) {
    throw new ActivityError(path, 0, '', `not valid YAML: ${(error as Error).message}`)
  }
}

/**
 * An activity checked whole and expanded into steps. `validators` are the board's (its
 * constrained values bound in), so a record is held to what the board lists.
 */
export function loadActivity(ref: string | ActivityFile, validators: Validators): LoadedActivity {
  let source = '(inline)'
  let text: string | undefined
  let data: unknown = ref
  if (typeof ref === 'string') {
    source = locate(ref)
    try {
      text = readFileSync(source, 'utf8')
    } catch (error) {
      throw new ActivityError(source, 0, '', `cannot be read: ${(error as Error).message}`)
    }
    data = parse(source, text)
  }
  const refuse = (errors: readonly ErrorObject[], whole: unknown): never => {
    const field = fieldOf(errors.find((e) => e.keyword !== 'if') ?? (errors[0] as ErrorObject))
    throw new ActivityError(source, lineOf(text, pathOf(field)), field, explain(errors, 'record', whole))
  }
  if (valueNestsDeeper(data)) throw new ActivityError(source, 0, '', 'it nests deeper than 64 levels.')
  const keyPath = prototypeKeyPath(data)
  if (keyPath !== undefined) {
    throw new ActivityError(source, lineOf(text, pathOf(keyPath)), keyPath, prototypeKeyRefusal('The activity', keyPath, 'no field of an activity has that name'))
  }
  const outline = validators.get(activityFile)
  if (!outline(data)) refuse(outline.errors ?? [], data)
  const file = structuredClone(data) as ActivityFile
  const steps: ActivityStep[] = []
  let last = 0
  file.events.forEach((given, index) => {
    const validate = validators.get(activityEvents[given.event as (typeof ACTIVITY_EVENTS)[number]])
    // defaults (an outage's 503) are filled in the copy
    if (!validate(given)) refuse((validate.errors ?? []).map((e) => ({ ...e, instancePath: `/events/${index}${e.instancePath}` })), file)
    const event = given as ActivityEvent
    const at = offsetMs(event.at)
    if (at < last) {
      const field = `events[${index}].at`
      throw new ActivityError(source, lineOf(text, pathOf(field)), field, `The at (field ${field}) is invalid: ${event.at} is earlier than the event before it; events are listed in the order they happen.`)
    }
    last = at
    if (event.event === 'outage' || event.event === 'timeouts') {
      steps.push({ offsetMs: at, index, event, part: 'start' }, { offsetMs: at + offsetMs(event.for), index, event, part: 'end' })
    } else if (event.event === 'burst') {
      const over = event.over === undefined ? 0 : offsetMs(event.over)
      for (let i = 0; i < event.count; i++) steps.push({ offsetMs: at + Math.floor((over * i) / event.count), index, event, part: i + 1 })
    } else steps.push({ offsetMs: at, index, event })
    if (steps.length > MAX_STEPS) {
      const field = `events[${index}]`
      throw new ActivityError(source, lineOf(text, pathOf(field)), field, `The activity makes more than ${MAX_STEPS} steps by event ${index} (bursts count one per application).`)
    }
  })
  // ends and spread bursts fall between later events: played in time order, ties in file order
  steps.sort((a, b) => a.offsetMs - b.offsetMs || a.index - b.index)
  return { name: file.name ?? (typeof ref === 'string' ? basename(source, extname(source)) : 'inline'), source, events: file.events.length, steps }
}
