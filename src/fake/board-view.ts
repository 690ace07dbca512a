// What the page of the watching layer (/__mock/ui, src/watch/ui/) shows of a fake: an
// account's journal, and beside the verdict its board (counts, clock, window, faults, open
// windows, the activity with its steps). The page is the watching layer's, for any source;
// this file is the fake's side of it: the source a request reads (the first account's, or
// the one /__mock/accounts/{name}/ui names), and the day written as one file at shutdown.
import type { FastifyRequest } from 'fastify'
import { formatTimestamp } from '../core/time.js'
import { dayFile, UI_PATH, type UiSource, verdictView } from '../watch/ui/routes.js'
import type { Accounts } from './accounts.js'
import { namedAccount } from './http/request-context.js'
import type { Board } from './board/board.js'
import type { Controller } from './control-api.js'

/** What /__mock/ui/board answers: counts, clock, window, faults, the activity with its steps, the verdict with each rule's sentence. */
export function boardView(board: Board, controller: Controller) {
  const store = board.store
  const counts = {
    jobs: store.jobs.size,
    candidates: store.candidates.size,
    applications: store.applications.size,
    timesheets: store.timesheets.size,
    marketing: store.marketing.size,
    resumes: store.files.resume.size,
    documents: store.files.document.size,
  }
  const activity = board.activity
  const verdict = board.verdict === undefined ? undefined : controller.verdict()
  return {
    status: 200,
    clock: { now: board.clock.now(), mode: board.clock.mode, speed: board.clock.speed },
    window: board.scenario.rateLimitWindow,
    counts,
    faults: controller.faults(),
    openWindows: board.limiter.open().length,
    activity: activity && { ...activity.status(), steps: activity.steps().map((s) => [s.atMs, s.event, s.played]) },
    verdict: verdict && verdictView(verdict),
  }
}

/** An account's board as the page's source. */
const sourceOf = (board: Board, controller: Controller, base: string): UiSource => ({ journal: board.journal, view: () => boardView(board, controller), base })

/** The page's source for a request: the account its path names (/__mock/accounts/{name}/ui: accountUrl, src/fake/http/request-context.ts), else the first. */
export function pageSource(accounts: Accounts): (request: FastifyRequest) => UiSource {
  return (request) => {
    const name = namedAccount(request)
    if (name === undefined) return sourceOf(accounts.first.board, accounts.first.controller, UI_PATH)
    const account = accounts.require(name)
    return sourceOf(account.board, account.controller, `/__mock/accounts/${encodeURIComponent(name)}/ui`)
  }
}

/** The fake's day as one HTML file (serve --verdict-html): the page with the journal the first account holds and its board inside. */
export function boardDayFile(board: Board, controller: Controller): Promise<string> {
  return dayFile(
    sourceOf(board, controller, UI_PATH),
    (requests) => `Written at ${formatTimestamp(board.clock.now())} (board time) when the fake stopped: ${requests} requests, the newest the journal held.`,
  )
}
