// The scenario a recording's gathered answers make (gather.ts, Gatherer.build): counts
// that keep the board's size (what a list's total holds beyond the records read is
// generated), the records read pinned on ids clear of the generated ones, each link to a
// candidate kept or moved to a generated one, the deployment's profile points as its
// behaviour; then fitted to the scenario format, every value the format refuses taken out
// for the generator to make, and loaded as serve loads it.
import { basename } from 'node:path'
import { behaviourProperties } from '../../schemas/behaviour.js'
import { MARKETING_ACTIONS } from '../../schemas/values.js'
import { hash32 } from '../core/random.js'
import { formatTimestamp, parseTime } from '../core/time.js'
import type { ApplicationSeed, CandidateSeed, MarketingSeed, Scenario, ScenarioFile } from '../core/types.js'
import { compileSchema, fieldOf } from '../core/validation.js'
import { boardLists, boundScenarioSchema, parseScenario, SCENARIO_POLICY, ScenarioError, scenarioListsSchema, sharedSchemas } from '../fake/scenario.js'
import { type BuildOptions, LIST_NAMES, type ListName, type LostRecord, type Progress } from './recording-progress.js'

const REVOKED = MARKETING_ACTIONS[1]

/** The scenario of what a recording gathered, before it is fitted, and the records it could not carry over. */
export function scenarioOf(p: Progress, { complete, reason, now, points, origin, out, sample, from }: BuildOptions): { built: ScenarioFile; lost: LostRecord[] } {
  const total = (name: ListName) => p.lists[name].total ?? p.lists[name].records
  // what a list's total holds beyond the records read is generated: a sample, or a run cut short, keeps the board's size
  const generated = (name: ListName, recorded: number) => Math.max(0, total(name) - recorded)
  const candidates = p.candidates
  const genCandidates = generated('candidates', candidates.length)
  const offsetOf = (ids: number[], gen: number) => (ids.some((id) => id <= gen) ? gen : 0)
  const candidateShift = offsetOf(candidates.map((c) => c.id as number), genCandidates)
  const pinnedCandidates = new Set(candidates.map((c) => c.id as number))
  const byEmail = new Map(candidates.map((c) => [c.email, c.id as number]))
  const generatedOwner = (key: number) => (genCandidates > 0 ? 1 + (hash32('owner', key) % genCandidates) : undefined)
  const ownerOf = (id: number | undefined, key: number): number | undefined =>
    id !== undefined && pinnedCandidates.has(id) ? id + candidateShift : generatedOwner(key)

  let genApplications = generated('applications', p.applications.length)
  if (genApplications > 0 && genCandidates === 0) genApplications = 0
  const applicationShift = offsetOf(p.applications.map((a) => a.id as number), genApplications)
  const lost: LostRecord[] = [...(p.lost ?? [])]
  const value = (point: string) => points[point]?.value
  const applications = p.applications.flatMap((a): ApplicationSeed[] => {
    const id = a.id as number
    if (a.job_id === undefined) {
      lost.push({ kind: 'applications', id: String(id), why: 'its vacancy has no id: an application of the fake is for a job' })
      return []
    }
    const owner = ownerOf(p.owners[id] ?? byEmail.get(p.applicantEmails[id]), id)
    // no listed candidate is theirs, and every candidate was listed: an applicant of their own (a guest)
    if (owner === undefined) return [{ ...a, id: id + applicationShift, applicant: p.applicants?.[id] ?? {} }]
    return [{ ...a, id: id + applicationShift, candidate_id: owner }]
  })
  const genTimesheets = genCandidates + candidates.length > 0 ? generated('timesheets', p.timesheets.length) : 0
  const timesheetShift = offsetOf(p.timesheets.map((t) => t.id as number), genTimesheets)
  const timesheets = p.timesheets.flatMap((t) => {
    const owner = ownerOf(t.candidate_id, t.id as number)
    if (owner === undefined) lost.push({ kind: 'timesheets', id: String(t.id), why: `its candidate ${String(t.candidate_id)} is not among the candidates listed` })
    return owner === undefined ? [] : [{ ...t, id: (t.id as number) + timesheetShift, candidate_id: owner }]
  })
  // a seed says Approved for an approval; the board shows the deployment's own word for it (behaviour.marketingApprovalAction)
  const approval = value('marketingApprovalAction') ?? MARKETING_ACTIONS[0]
  const marketing = p.marketing.flatMap((m, index): MarketingSeed[] => {
    const owner = m.candidate_id !== undefined && pinnedCandidates.has(m.candidate_id) ? m.candidate_id + candidateShift : 0
    const word = m.action as string | undefined
    const action = word === REVOKED ? REVOKED : word === approval ? MARKETING_ACTIONS[0] : undefined
    if (action === undefined) {
      const why = word === undefined ? 'it has no action' : `its action ${JSON.stringify(word)} is neither Revoked nor the word the board approves with (${JSON.stringify(approval)}): a board of the fake has one`
      lost.push({ kind: 'marketing', id: `#${index + 1}`, why })
      return []
    }
    return [{ ...m, candidate_id: owner, action }]
  })
  const jobs = Object.values(p.jobs)
  const perCandidate = (kind: 'resumes' | 'documents') => {
    const recorded = candidates.reduce((n, c) => n + (c[kind]?.length ?? 0), 0)
    return candidates.length > 0 ? Math.round((recorded / candidates.length) * genCandidates) : 0
  }
  const counts = {
    // the highest job id seen is the least the board holds: generated jobs fill the ids below it that nobody applied to
    jobs: genApplications > 0 ? Math.max(1, ...jobs.map((j) => j.id as number)) : 0,
    candidates: genCandidates,
    applications: genApplications,
    timesheets: genTimesheets,
    resumes: perCandidate('resumes'),
    documents: perCandidate('documents'),
    marketing: generated('marketing', p.marketing.length),
  }
  const behaviour = Object.fromEntries(Object.keys(behaviourProperties).flatMap((point) => (value(point) === undefined ? [] : [[point, value(point)]])))
  const pageSize = value('pageSize') ?? LIST_NAMES.map((n) => p.lists[n]).find((l) => l.next !== null || (l.total ?? 0) > l.records)?.pageSize
  const nowText = formatTimestamp(now)
  const months = p.oldest ? Math.ceil((now - parseTime(p.oldest)) / (30.44 * 86_400_000)) + 1 : 24
  const name = basename(out).replace(/\.json$/i, '').toLowerCase().replace(/[^a-z0-9-]+/g, '-').replace(/^-+|-+$/g, '') || 'recorded'
  const recording: Record<string, unknown> = { origin: origin, recorded_at: nowText, complete }
  if (reason !== undefined) recording.reason = reason
  if (sample !== undefined) recording.sample = sample
  if (!complete) recording.progress = p
  const shift = (c: CandidateSeed) => ({ ...c, id: (c.id as number) + candidateShift })
  const built = {
    name: /^[a-z0-9]/.test(name) ? name : `recorded-${name}`,
    description: `${from ?? 'Recorded from'} ${origin} on ${nowText}${complete ? '' : ' (incomplete)'}${sample !== undefined ? `, a sample of ${sample} records a list` : ''}; personal values replaced.`,
    seed: hash32('record', origin),
    now: nowText,
    historyMonths: Math.min(120, Math.max(1, months)),
    counts,
    ...(typeof pageSize === 'number' ? { pageSize } : {}),
    ...(typeof value('rateLimitWindow') === 'number' ? { rateLimitWindow: value('rateLimitWindow') as number } : {}),
    ...(p.fields && Object.keys(p.fields).length > 0 ? { fieldValues: p.fields } : {}),
    ...(p.metricMonths && Object.keys(p.metricMonths).length > 0 ? { metricMonths: p.metricMonths } : {}),
    ...(p.metricValues && Object.keys(p.metricValues).length > 0 ? { metricValues: p.metricValues } : {}),
    records: { jobs, candidates: candidates.map(shift), applications, timesheets, marketing },
    behaviour,
    recording,
  } as ScenarioFile
  return { built, lost }
}

/**
 * Takes out of a built scenario, in place, every value the scenario format refuses (a
 * deployment may write a date or a list value the fake's schemas do not take), so the
 * file loads; the generator makes those values instead. All of a pass's errors go at
 * once (the validator reports every one), so a value wrong in every record costs a pass,
 * not a pass per record. Answers the fields taken out.
 */
export function fitted(scenario: ScenarioFile): string[] {
  const dropped: string[] = []
  for (let pass = 0; pass < 20; pass++) {
    const copy = structuredClone(scenario)
    const lists = sharedSchemas().get('lists', () => compileSchema(SCENARIO_POLICY, scenarioListsSchema))
    const bound = lists(copy) ? boardLists(copy as Scenario) : undefined
    const validate = bound ? sharedSchemas().get(JSON.stringify(bound), () => compileSchema(SCENARIO_POLICY, boundScenarioSchema(bound))) : lists
    if (validate(copy)) {
      // the fake's own check, as serve runs it: what passes here loads
      parseScenario(scenario, 'the recorded scenario', { compiled: sharedSchemas() })
      return dropped
    }
    // deepest first, so removing an array item does not move the others' paths
    const fields = [...new Set((validate.errors ?? []).filter((e) => e.keyword !== 'if').map(fieldOf))].sort((a, b) => b.localeCompare(a, 'en', { numeric: true }))
    const removed = fields.filter((field) => remove(scenario, field))
    if (removed.length === 0) throw new ScenarioError(`the recorded scenario does not fit the scenario format at ${fields[0] ?? 'its top level'}`, fields[0] ?? '')
    dropped.push(...removed)
  }
  throw new Error('the recorded scenario still does not fit after 20 passes')
}

/** Deletes the value at a path such as `records.candidates[3].email`; false when there is none to delete. */
function remove(root: unknown, path: string): boolean {
  const steps = path.match(/[^.[\]]+/g) ?? []
  if (steps.length === 0) return false
  let node: unknown = root
  for (const step of steps.slice(0, -1)) {
    if (node === null || typeof node !== 'object') return false
    node = (node as Record<string, unknown>)[step]
  }
  const last = steps[steps.length - 1] as string
  if (node === null || typeof node !== 'object' || !(last in node)) return false
  if (Array.isArray(node)) node.splice(Number(last), 1)
  else delete (node as Record<string, unknown>)[last]
  return true
}
