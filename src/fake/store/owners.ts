// Who owns what on one board, where a record does not say it itself: the candidate who
// made an application, a job's applications, a candidate found by e-mail, an
// application's attachment size. Generated records answer from the drawn relations
// (src/fake/store/relations.ts, keyed by src/fake/store/relation-table.ts); written ones (adds,
// imported states) from maps kept here as they are written.
import type { Application, Candidate } from '../../core/types.js'
import type { Collection } from './collection.js'
import type { GeneratedBoard } from './generate.js'
import type { OwnerLookup } from './relation-table.js'

export class Owners implements OwnerLookup {
  #generated: GeneratedBoard | undefined
  /** The candidate of each written application, by application id. */
  readonly #applicant = new Map<number, number>()
  /** Written applications by job, ascending. */
  readonly #byJob = new Map<number, number[]>()
  readonly #attachmentSizes = new Map<number, number>()
  /** E-mails of written candidates; a generated e-mail names its candidate (GeneratedBoard.emailOwner). */
  readonly #byEmail = new Map<string, number>()

  constructor(private readonly records: { readonly applications: Collection<Application>; readonly candidates: Collection<Candidate> }) {}

  /** The generated board under the written records. */
  setGenerated(board: GeneratedBoard): void {
    this.#generated = board
    for (const [id, size] of board.relations.applications.attachmentSizes) this.#attachmentSizes.set(id, size)
  }

  /** The candidate who made an application: 0 for a guest (no candidate account). */
  applicantOf(applicationId: number): number | undefined {
    const written = this.#applicant.get(applicationId)
    if (written !== undefined) return written
    const generated = this.#generated?.relations.applications
    return generated && applicationId <= generated.count && this.records.applications.has(applicationId) ? generated.candidateOf(applicationId) : undefined
  }

  /** The candidate who made a generated application, whatever is written over it. */
  generatedApplicantOf(applicationId: number): number | undefined {
    const generated = this.#generated?.relations.applications
    return generated && applicationId >= 1 && applicationId <= generated.count ? generated.candidateOf(applicationId) : undefined
  }

  /** The candidate with this e-mail, if any. */
  emailOwner(email: string): number | undefined {
    const written = this.#byEmail.get(email)
    if (written !== undefined) return written
    const generated = this.#generated?.emailOwner(email)
    return generated !== undefined && this.records.candidates.get(generated)?.email === email ? generated : undefined
  }

  /** The size an application's attachment was given, if it was (else it is drawn from the seed). */
  attachmentSize(applicationId: number): number | undefined {
    return this.#attachmentSizes.get(applicationId)
  }

  /** A job's applications, generated and written, ascending. */
  applicationsOf(job: number): number[] {
    const generated = this.#generated?.relations.applications
    const written = this.#byJob.get(job) ?? []
    const all = generated ? generated.ofJob(job) : []
    if (written.length > 0) all.push(...written.filter((id) => !all.includes(id)))
    if (written.length > 0) all.sort((a, b) => a - b)
    return all
  }

  /** A written application: its candidate (0 for a guest), its attachment's size if given, and its place under its job. */
  noteApplication(application: Application, applicant: number, attachmentSize: number | undefined): void {
    this.#applicant.set(application.id, applicant)
    if (attachmentSize !== undefined) this.#attachmentSizes.set(application.id, attachmentSize)
    const ids = this.#byJob.get(application.vacancy.id)
    if (!ids) this.#byJob.set(application.vacancy.id, [application.id])
    else {
      ids.push(application.id)
      if (application.id < (ids[ids.length - 2] as number)) ids.sort((a, b) => a - b)
    }
  }

  /** A written candidate, found by e-mail from now on. */
  noteCandidate(candidate: Candidate): void {
    this.#byEmail.set(candidate.email, candidate.id)
  }
}
