// What the checks of one run share: the settings, the client and its plan, the values
// job/fields gave (bound into the schemas), the observations, and the jobs the run
// created, so that cleanup can delete them whatever happens.
import type { ProfilePointName } from '../../schemas/profile.js'
import type { LoadedProfile } from '../profile/deployment-profile.js'
import { FIELD_VALUES, type FieldValues } from '../../schemas/values.js'
import type { Asserter } from './checks.js'
import type { KitClock } from './kit-clock.js'
import type { Answer } from './request-outcomes.js'
import type { Client } from './http.js'
import { deploymentKey, type Ledger } from './ledger.js'
import { Observations } from './observations.js'
import { Plan } from './plan.js'
import type { ContractSettings } from './settings.js'
import { AnswerValidator } from './validate.js'

const DAY_MS = 86_400_000

export interface CreatedJob {
  id: number
  reference: string
  /** The request that created it. */
  createdBy: string
  /** The request that deleted it, once one answered 200. */
  deletedBy: string | undefined
  /** Why cleanup could not delete it, if it could not. */
  cleanupError: string | undefined
}

export class RunContext {
  readonly settings: ContractSettings
  readonly client: Client
  readonly clock: KitClock
  readonly plan: Plan
  readonly ledger: Ledger
  /** Whose board this is, as the ledger keeps write records: `<user> <base URL>`. */
  readonly deployment: string
  readonly observations = new Observations()
  readonly jobs: CreatedJob[] = []
  /** The write checks' turns in this run (src/contract/write-turns.ts), once planned. */
  turns: ReadonlyMap<string, { due: boolean; reason: string | undefined }> = new Map()
  /** The request matrix's constrained-field forms this run's valid add tried (src/contract/matrix.ts), by cell id. */
  formsTried: string[] = []
  #values: FieldValues = FIELD_VALUES
  #validator = new AnswerValidator(FIELD_VALUES)

  constructor(settings: ContractSettings, client: Client, clock: KitClock, ledger: Ledger) {
    this.settings = settings
    this.client = client
    this.clock = clock
    this.ledger = ledger
    this.deployment = deploymentKey(settings.username, settings.baseUrl)
    // the walks a run cannot afford in full take turns, and so do the links read in turn (in-turn.ts):
    // the ledger says which went in full when and which link each rotation took last, else the night decides
    const rotation = { walked: ledger.walksOf(this.deployment), inTurn: ledger.inTurnOf(this.deployment), night: Math.floor(clock.now() / DAY_MS) }
    this.plan = new Plan(client, settings.groups, settings.profile !== undefined || settings.writeProfile !== undefined, rotation)
  }

  /**
   * Choices known before the run (the --profile's, else those of the --write-profile file
   * already there): how to talk to the deployment where the spec is silent, such as the
   * field that names the job in close and expire.
   */
  known: Readonly<Partial<Record<ProfilePointName, unknown>>> = {}

  /** The --profile the deployment is checked against, if one was given. */
  profile: LoadedProfile | undefined

  /** The field close and expire name the job by, once an answer showed it, with the request that did. */
  idField: { value: 'id' | 'job_id'; request: string; at: number } | undefined

  /** What the deployment answered each request case whose value the spec's words leave open (cases.ts OPEN_CASES), by case id. */
  readonly openValues = new Map<string, { value: 'accepted' | 'refused'; request: string; at: number }>()

  /** The constrained values in force: job/fields' when its shape was understood, else the spec's. */
  get values(): FieldValues {
    return this.#values
  }

  bindValues(values: FieldValues): void {
    this.#values = values
    this.#validator = new AnswerValidator(values)
  }

  /**
   * Asserts that a JSON answer fits a schema: one failure per problem, drift noted as
   * an observation of the endpoint. True when it fits.
   */
  fits(a: Asserter, schema: object, answer: Answer, endpoint: string, what: string): boolean {
    const verdict = this.#validator.check(schema, answer.json)
    if (verdict.drift.length > 0) {
      this.observations.add({
        topic: 'drift',
        endpoint,
        summary: `fields the schemas do not know: ${verdict.drift.map((d) => d.field).join(', ')}`,
        details: verdict.drift,
      })
    }
    for (const choice of verdict.choices) this.observations.add({ topic: choice.topic, endpoint, summary: choice.summary })
    const noted = verdict.drift.length + verdict.choices.length
    // its bytes and Content-Type ("All bodies are JSON", RFC 8259) are the "every answer" checks' (groups/wire-checks.ts)
    return a.none(
      verdict.failures.map((failure) => `${what}: ${failure}`),
      `${what} fits the schema${noted > 0 ? ` (besides ${noted} choice${noted === 1 ? '' : 's'} the spec leaves open, see observations)` : ''}`,
    )
  }

  /** Records a job the run made, the moment its id is known. */
  created(id: number, reference: string, createdBy: string): CreatedJob {
    const job: CreatedJob = { id, reference, createdBy, deletedBy: undefined, cleanupError: undefined }
    this.jobs.push(job)
    return job
  }
}
