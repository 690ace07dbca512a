// The relations of a generated board drawn (their shape: relation-arrays.ts): when each
// record was made (ids in time order), which candidate made each file and consent, drawn
// in bulk into typed arrays, each owner's records indexed; and the applications (ten times
// the candidates, ten million on xl), drawn one at a time when asked, each with its
// candidate and job, answering backwards too (application-draw.ts). Here the draw's steps
// in their order, and those of jobs, applications and marketing; the candidates' own are
// candidate-draws.ts's. Records themselves are made later, one at a time, from these
// (generate.ts). The rules of who can be linked to what when drawing are written here and
// there once: a candidate registered by then, a job posted in the two months before.
import { parseTime } from '../../core/time.js'
import type { ApplicationSeed, JobSeed, MarketingSeed } from '../../core/types.js'
import type { LoadedScenario } from '../scenario.js'
import { DrawnApplications } from './application-draw.js'
import { CandidatePicker, datedCandidates, drawCandidates, drawFiles, type DrawnCandidates, isCandidate } from './candidate-draws.js'
import { byTime, DAY, Draw, pin } from './draw-context.js'
import { ACTION, type Drawn, indexByOwner, type Kind, type RelationOptions, type Relations, REVOKED } from './relation-arrays.js'

/**
 * The steps of a draw, in the order they use the generator: jobs, candidates, their
 * files, applications, marketing; then each candidate's latest change, and each owner's
 * children indexed.
 */
export function drawRelations(scenario: LoadedScenario, options: RelationOptions): Relations {
  const draw = new Draw(scenario, options.progress ?? (() => {}))
  const { counts } = scenario
  // every applicant may be a guest (behaviour.guestApplicants 1): then no candidate is needed
  if (counts.applications > 0 && (counts.jobs === 0 || (counts.candidates === 0 && scenario.behaviour.guestApplicants < 1))) {
    draw.refuse('applications need at least one job and one candidate (or every applicant a guest: behaviour.guestApplicants 1).', 'counts.applications')
  }
  const jobs = drawJobs(draw)
  const candidates = drawCandidates(draw)
  const files = drawFiles(draw, candidates)
  const applications = drawApplications(draw, jobs, candidates)
  const marketing = drawMarketing(draw, jobs, candidates, options.emailOwner)
  const drawn: Drawn = { nowMs: draw.nowMs, startMs: draw.startMs, jobs, candidates: datedCandidates(draw, candidates.kind, { files, applications, marketing }), files, applications, marketing }
  draw.did(counts.candidates)
  const byOwner = indexByOwner(drawn)
  draw.did(counts.candidates)
  return { ...drawn, byOwner }
}

/** Jobs, ids in time order; pinned ones take their id or come after. */
function drawJobs(draw: Draw): Kind<JobSeed> {
  const jobs = draw.kind<JobSeed>(draw.scenario.counts.jobs, draw.startMs, draw.nowMs - 7 * DAY)
  pin(jobs, (draw.scenario.records.jobs ?? []) as JobSeed[], (seed, id, existing) =>
    seed.created_at ? parseTime(seed.created_at) : existing ? (jobs.created[id - 1] as number) : draw.timeFrom(draw.startMs),
  )
  draw.did(draw.scenario.counts.jobs)
  return jobs
}

/**
 * Applications: by a candidate registered by then, to a job posted in the two months
 * before, each drawn when asked (src/fake/store/application-draw.ts); then the scenario's.
 */
function drawApplications(draw: Draw, jobs: Kind<JobSeed>, candidates: DrawnCandidates): Relations['applications'] {
  const jobsByTime = byTime(jobs)
  const firstJobMs = jobsByTime.ms[0] ?? draw.nowMs
  // with no candidate at all every applicant is a guest, from the first job on
  const firstMs = Math.max(firstJobMs, candidates.byTime.ms[0] ?? firstJobMs)
  const applications = new DrawnApplications({
    seed: draw.scenario.seed,
    count: draw.scenario.counts.applications,
    fromMs: firstMs,
    nowMs: draw.nowMs,
    guestShare: draw.scenario.behaviour.guestApplicants,
    candidates: { ...candidates.byTime, count: candidates.kind.count, noApplications: candidates.noApplications },
    jobs: { ...jobsByTime, count: jobs.count },
  })
  pinApplications(draw, applications, jobs, candidates)
  return applications
}

/** The scenario's applications: on their id or after the last, by the candidate (or the guest) and for the job they name. */
function pinApplications(draw: Draw, applications: Relations['applications'], jobs: Kind<JobSeed>, candidates: DrawnCandidates): void {
  const present = candidates.byTime.ms.length
  for (const [index, seed] of ((draw.scenario.records.applications ?? []) as ApplicationSeed[]).entries()) {
    const id = seed.id ?? applications.count + 1
    const existing = applications.exists(id)
    if (seed.applicant !== undefined && seed.candidate_id !== undefined) {
      draw.refuse(
        `application ${id} names both candidate ${seed.candidate_id} and a guest applicant: an application is by a candidate or by a guest, not both.`,
        `records.applications[${index}].applicant`,
      )
    }
    // a guest: given as one, or a generated guest's application pinned without another applicant
    const guest = seed.applicant !== undefined || (seed.candidate_id === undefined && existing && applications.candidateOf(id) === 0)
    const owner = guest ? 0 : (seed.candidate_id ?? (existing ? applications.candidateOf(id) : undefined) ?? (present > 0 ? 1 : undefined))
    const job = seed.job_id ?? (existing ? applications.jobOf(id) : undefined) ?? (jobs.count > 0 ? 1 : undefined)
    const ownerOk = guest || isCandidate(candidates, owner)
    const jobOk = job !== undefined && job <= jobs.count && !jobs.absent.includes(job)
    if (!ownerOk || !jobOk) {
      const why = ownerOk
        ? `names job ${job ?? '(none: the board has no job)'}, which does not exist`
        : seed.candidate_id === undefined
          ? 'names no candidate and the board has none (give candidate_id, or a guest applicant)'
          : `names candidate ${seed.candidate_id}, which does not exist`
      draw.refuse(`application ${id} ${why}.`, `records.applications[${index}].${ownerOk ? 'job_id' : 'candidate_id'}`)
    }
    if (seed.created_at !== undefined && seed.updated_at !== undefined && seed.updated_at < seed.created_at) {
      draw.refuse(
        `application ${id} was updated (${seed.updated_at}) before it was created (${seed.created_at}): updated_at is never before created_at.`,
        `records.applications[${index}].updated_at`,
      )
    }
    const since = owner ? (candidates.kind.created[(owner as number) - 1] as number) : draw.startMs
    const drawn = seed.created_at ? parseTime(seed.created_at) : existing ? applications.at(id - 1) : draw.timeFrom(since)
    // with no created_at given, an updated_at given is the latest it can have been created
    const ms = seed.created_at === undefined && seed.updated_at !== undefined ? Math.min(drawn, parseTime(seed.updated_at)) : drawn
    // changed later when its seed says so (updated_at), else never
    const updated = seed.updated_at === undefined ? undefined : parseTime(seed.updated_at)
    applications.pin(id, { ms, candidate: owner as number, job: job as number, lateMs: updated !== undefined && updated > ms ? updated : undefined })
    applications.seeds.set(id, { ...seed, id })
    if (seed.attachment_filesize !== undefined) applications.attachmentSizes.set(id, seed.attachment_filesize)
  }
}

/** Marketing: approvals and revocations by candidates, and by e-mails with no account; then the scenario's. */
function drawMarketing(draw: Draw, jobs: Kind<JobSeed>, candidates: DrawnCandidates, emailOwner: RelationOptions['emailOwner']): Relations['marketing'] {
  const { prng } = draw
  const { mix } = draw.scenario
  const n = draw.scenario.counts.marketing
  const marketing: Relations['marketing'] = {
    ...draw.kind<MarketingSeed>(n, draw.startMs, draw.nowMs),
    candidate: new Uint32Array(n),
    stranger: new Uint32Array(n),
    action: new Uint8Array(n),
    strangers: Math.max(1, Math.ceil(n / 5)),
  }
  const present = candidates.byTime.ms.length
  const firstCandidateMs = candidates.byTime.ms[0] ?? draw.nowMs
  const picker = new CandidatePicker(prng, candidates)
  const lastByCandidate = new Uint8Array(candidates.kind.count + 1)
  const lastByStranger = new Uint8Array(marketing.strangers)
  for (let i = 0; i < n; i++) {
    const ms = marketing.created[i] as number
    // before the first registration only strangers can give consent
    const isStranger = present === 0 || ms < firstCandidateMs || prng.chance(mix.unknownMarketingEmail)
    const c = isStranger ? 0 : picker.pick(ms)
    const s = isStranger ? prng.int(0, marketing.strangers - 1) : 0
    const previous = isStranger ? lastByStranger[s] : lastByCandidate[c]
    // a revocation mostly follows an approval by the same person
    const action =
      previous === ACTION.approved
        ? prng.chance(mix.revoked * 2)
          ? ACTION.revoked
          : ACTION.approved
        : previous === 0 && prng.chance(mix.revoked / 3)
          ? ACTION.revoked
          : ACTION.approved
    if (isStranger) lastByStranger[s] = action
    else lastByCandidate[c] = action
    marketing.candidate[i] = c
    marketing.stranger[i] = s
    marketing.action[i] = action
  }
  draw.did(n)
  pinMarketing(draw, marketing, jobs, candidates, emailOwner)
  return marketing
}

/** The scenario's marketing records join the drawn ones in time order; one may name its candidate by e-mail. */
function pinMarketing(draw: Draw, marketing: Relations['marketing'], jobs: Kind<JobSeed>, candidates: DrawnCandidates, emailOwner: RelationOptions['emailOwner']): void {
  const seeds = (draw.scenario.records.marketing ?? []) as MarketingSeed[]
  if (seeds.length === 0) return
  const rows = Array.from({ length: marketing.count }, (_, i) => ({
    ms: marketing.created[i] as number,
    c: marketing.candidate[i] as number,
    s: marketing.stranger[i] as number,
    action: marketing.action[i] as number,
    seed: undefined as MarketingSeed | undefined,
  }))
  for (const [index, seed] of seeds.entries()) {
    // what the e-mail lookup needs of the relations: candidates' times, before they are dated
    const relations = { nowMs: draw.nowMs, startMs: draw.startMs, jobs, candidates: { ...candidates.kind } } as unknown as Relations
    const c = seed.candidate_id || (seed.email === undefined ? 0 : (emailOwner(seed.email, relations) ?? 0))
    if (seed.candidate_id && !isCandidate(candidates, c)) {
      draw.refuse(`a marketing record names candidate ${seed.candidate_id}, which does not exist.`, `records.marketing[${index}].candidate_id`)
    }
    const ms = seed.created_at ? parseTime(seed.created_at) : draw.timeFrom(c ? (candidates.kind.created[c - 1] as number) : draw.startMs)
    rows.push({ ms, c, s: 0, action: seed.action === REVOKED ? ACTION.revoked : ACTION.approved, seed })
  }
  rows.sort((a, b) => a.ms - b.ms)
  marketing.count = rows.length
  marketing.created = Float64Array.from(rows, (r) => r.ms)
  marketing.candidate = Uint32Array.from(rows, (r) => r.c)
  marketing.stranger = Uint32Array.from(rows, (r) => r.s)
  marketing.action = Uint8Array.from(rows, (r) => r.action)
  rows.forEach((r, i) => {
    if (r.seed) marketing.pinned.set(i + 1, r.seed)
  })
}
