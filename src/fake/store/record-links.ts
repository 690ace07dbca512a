// The URLs the board writes into records and answers, built in one place. Records in
// the store carry absolute URLs on the store's origin; src/fake/app.ts moves them onto the
// origin a request came in on when the scenario sets no public base URL.
import { API_PREFIX } from '../../../schemas/common.js'
import { FILE_KINDS, type FileKind } from '../../../schemas/store.js'

export { API_PREFIX, FILE_KINDS, type FileKind }

/** The origin records are written with when no public base URL is set: the CLI's default address. */
export const DEFAULT_ORIGIN = 'http://127.0.0.1:4010'


export function links(base: string) {
  const api = `${base}${API_PREFIX}`
  return {
    base,
    candidate: (id: number) => `${api}/candidates/details/${id}`,
    application: (id: number) => `${api}/applications/details/${id}`,
    attachment: (id: number) => `${api}/applications/attachment/${id}`,
    /** Candidate files: /candidates/timesheet|resume|document/{id}. */
    file: (kind: FileKind, id: number) => `${api}/candidates/${kind}/${id}`,
    /** The public page of a job, outside the API and its auth. */
    jobPage: (id: number) => `${base}/jobs/${id}`,
  }
}

export type Links = ReturnType<typeof links>
