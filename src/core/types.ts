// The TypeScript types of every resource, request and answer, derived from schemas/
// with json-schema-to-ts. This is the only module that runs FromSchema.
import type { FromSchema } from 'json-schema-to-ts'
import type * as S from '../../schemas/index.js'
import type * as P from '../../schemas/proxy.js'

export type JobInput = FromSchema<typeof S.jobInput>
export type JobIdBody = FromSchema<typeof S.jobIdBody>
export type JobRepostBody = FromSchema<typeof S.jobRepostBody>
export type JobAddAnswer = FromSchema<typeof S.jobAddAnswer>
export type JobFieldsAnswer = FromSchema<typeof S.jobFieldsAnswer>
export type StoredJob = FromSchema<typeof S.storedJob>
export type JobState = StoredJob['state']

export type FileEntry = FromSchema<typeof S.fileEntry>
export type CandidateApplicationEntry = FromSchema<typeof S.candidateApplicationEntry>
export type ConsentEntry = FromSchema<typeof S.consentEntry>
export type Candidate = FromSchema<typeof S.candidate>
export type Application = FromSchema<typeof S.application>
export type Timesheet = FromSchema<typeof S.timesheet>
export type MarketingRecord = FromSchema<typeof S.marketingRecord>
export type Metric = FromSchema<typeof S.metric>

export type CandidateList = FromSchema<typeof S.candidateList>
export type CandidateDetail = FromSchema<typeof S.candidateDetail>
export type ApplicationList = FromSchema<typeof S.applicationList>
export type ApplicationDetail = FromSchema<typeof S.applicationDetail>
export type TimesheetList = FromSchema<typeof S.timesheetList>
export type MarketingList = FromSchema<typeof S.marketingList>
export type MetricsAnswer = FromSchema<typeof S.metricsAnswer>
export type MessageAnswer = FromSchema<typeof S.messageAnswer>
export type ErrorBody = FromSchema<typeof S.anyErrorBody>

export type PagedQuery = FromSchema<typeof S.pagedQuery>
export type ApplicationsQuery = FromSchema<typeof S.applicationsQuery>
export type IdParams = FromSchema<typeof S.idParams>

export type CandidateSeed = FromSchema<typeof S.candidateSeed>
export type JobSeed = FromSchema<typeof S.jobSeed>
export type ApplicationSeed = FromSchema<typeof S.applicationSeed>
export type GuestSeed = FromSchema<typeof S.guestApplicant>
export type TimesheetSeed = FromSchema<typeof S.timesheetSeed>
export type MarketingSeed = FromSchema<typeof S.marketingSeed>

/** A scenario file as written (defaults not yet applied). */
export type ScenarioFile = FromSchema<typeof S.scenario, { keepDefaultedPropertiesOptional: true }>
/** A scenario once loaded, with every default filled in. */
export type Scenario = FromSchema<typeof S.scenario>
export type Behaviour = FromSchema<typeof S.behaviour>
/** Options as a caller passes them. */
export type ServerOptionsInput = FromSchema<typeof S.serverOptions, { keepDefaultedPropertiesOptional: true }>
/** Options once validated, defaults filled in. */
export type ServerOptions = FromSchema<typeof S.serverOptions>
export type StoredFile = FromSchema<typeof S.storedFile>
export type ResetBody = FromSchema<typeof S.resetBody>
export type Fault = FromSchema<typeof S.faultBody>
export type FaultInput = FromSchema<typeof S.faultBody, { keepDefaultedPropertiesOptional: true }>
export type JournalEntry = FromSchema<typeof S.journalEntry>
/** One journal entry with its request and answer, bodies capped (GET /__mock/requests/{id}). */
export type JournalEntryDetail = FromSchema<typeof S.journalEntryDetail>
export type JournalBody = FromSchema<typeof S.journalBody>
/** What POST /__mock/verdict/copy takes: the client's copy of one or more lists. */
export type CopyBody = FromSchema<typeof S.copyBody>
export type CopyAnswer = FromSchema<typeof S.copyAnswer>
export type CopyListAnswer = FromSchema<typeof S.copyListAnswer>
export type VerdictAnswer = FromSchema<typeof S.verdictAnswer>
export type JobFieldsChange = FromSchema<typeof S.jobFieldsChange>
export type JobFieldsState = FromSchema<typeof S.jobFieldsState>
export type StoreState = FromSchema<typeof S.storeState>
export type MetricsState = FromSchema<typeof S.metricsState>
export type BoardState = FromSchema<typeof S.boardState>
export type CompactStoreState = FromSchema<typeof S.compactStoreState>
/** A board saved in the compact form (GET /__mock/state?form=compact). */
export type CompactBoardState = FromSchema<typeof S.compactBoardState>
/** Contract settings as flags give them. */
export type ContractFlags = FromSchema<typeof S.contractOptions, { keepDefaultedPropertiesOptional: true }>
/** Contract settings once validated, defaults filled in. */
export type ContractOptions = FromSchema<typeof S.contractOptions>
export type PredefinedLocation = FromSchema<typeof S.predefinedLocation>
export type Credential = FromSchema<typeof S.credential>
/** The filters and page of a list (candidates, timesheets, marketing; applications add vacancy). */
export type ListQuery = PagedQuery
export type LedgerEntry = FromSchema<typeof S.ledgerEntry>
export type LedgerFile = FromSchema<typeof S.ledgerFile>
/** A deployment profile file (schemas/profile.ts). */
export type ProfileFile = FromSchema<typeof S.profileFile>
export type ProfilePoints = ProfileFile['points']
export type ExtraField = FromSchema<typeof S.extraField>
/** Record settings as flags give them. */
/** The proxy's JSON report (--report). */
export type ProxyReport = FromSchema<typeof P.proxyReport>

export type RecordFlags = FromSchema<typeof S.recordOptions, { keepDefaultedPropertiesOptional: true }>
/** Record settings once validated, defaults filled in. */
export type RecordOptions = FromSchema<typeof S.recordOptions>
/** An activity file as written (schemas/activity.ts): its events are checked one by one against activityEvents. */
export type ActivityFile = FromSchema<typeof S.activityFile>
/** One event of an activity, defaults filled in. */
export type ActivityEvent = { [K in keyof typeof S.activityEvents]: FromSchema<(typeof S.activityEvents)[K]> }[keyof typeof S.activityEvents]
export type CandidateUpdate = FromSchema<typeof S.candidateUpdate>
