// The verdict's cost measured in one process, without sockets or a load generator: the
// same endpoints as the socket rows (bench/targets.ts), sent through inject to the
// default board with the verdict on and to its twin with it off, the two in turns, in
// many short rounds. Over sockets, on two shared cores, rounds differ by more than the
// verdict costs (bench/README.md); here only the fake's own work and inject's is timed,
// so the figure says what judging a request adds to answering it: an upper bound of what
// it adds over a socket, where the network's work is added to both. Reports only.
import { performance } from 'node:perf_hooks'
import type autocannon from 'autocannon'
import { createMockServer, type MockServer } from '../src/fake/server.js'
import type { Target } from './load.js'
import { median } from './report.js'
import { depthTargets, limitedTargets, openTargets, readBoard, readDepth } from './targets.js'

export interface InProcessCost {
  name: string
  /** Median over the rounds of (time with the verdict on ÷ time with it off) − 1. */
  cost: number
  min: number
  max: number
  /** Microseconds per answer with the verdict off, median over the rounds. */
  offMicros: number
}

export interface InProcessCostSettings {
  rounds: number
  /** Requests per board per round. */
  perRound: number
}

/** Enough rounds that a median holds against a collection or a scheduler's pause in one of them; about a minute. */
export const IN_PROCESS_COST_SETTINGS: InProcessCostSettings = { rounds: 9, perRound: 1000 }

/** The requests of a target, made concrete: `[<id>]` replaced by a fresh number each time. */
function* cycle(target: Target): Generator<autocannon.Request> {
  let id = 0
  for (;;) {
    for (const request of target.requests) {
      if (!target.unique) yield request
      else yield { ...request, path: String(request.path).replace('[<id>]', String(++id)) }
    }
  }
}

/** Node's gc() when the bench runs with --expose-gc: each batch then starts on a collected heap, not on the other board's garbage. */
const collect = (globalThis as { gc?: () => void }).gc ?? (() => {})

async function sendMany(fake: MockServer, requests: Generator<autocannon.Request>, count: number, expect: number): Promise<number> {
  collect()
  const began = performance.now()
  for (let i = 0; i < count; i++) {
    const request = requests.next().value as autocannon.Request
    const answer = await fake.inject({
      method: (request.method ?? 'GET') as 'GET',
      url: String(request.path),
      headers: request.headers as Record<string, string>,
      ...(request.body === undefined ? {} : { payload: String(request.body) }),
    })
    if (answer.statusCode !== expect) throw new Error(`${request.method ?? 'GET'} ${request.path} answered ${answer.statusCode}, not ${expect}.`)
  }
  return performance.now() - began
}

/** One target on the two boards: a warm-up each, then rounds in turns (on first in odd rounds). */
async function pair(on: MockServer, off: MockServer, onTarget: Target, offTarget: Target, settings: InProcessCostSettings): Promise<InProcessCost> {
  const onRequests = cycle(onTarget)
  const offRequests = cycle(offTarget)
  // a target's prepare (over the board's own origin) puts its board back where each batch starts
  for (const [fake, target, requests] of [[on, onTarget, onRequests], [off, offTarget, offRequests]] as const) {
    await target.prepare?.()
    await sendMany(fake, requests, settings.perRound, target.expect)
  }
  const ratios: number[] = []
  const offTimes: number[] = []
  for (let round = 0; round < settings.rounds; round++) {
    let onMs = 0
    let offMs = 0
    const runOn = async () => {
      await onTarget.prepare?.()
      onMs = await sendMany(on, onRequests, settings.perRound, onTarget.expect)
    }
    const runOff = async () => {
      await offTarget.prepare?.()
      offMs = await sendMany(off, offRequests, settings.perRound, offTarget.expect)
    }
    if (round % 2 === 0) {
      await runOn()
      await runOff()
    } else {
      await runOff()
      await runOn()
    }
    ratios.push(onMs / offMs - 1)
    offTimes.push((offMs * 1000) / settings.perRound)
  }
  return { name: onTarget.name, cost: median(ratios), min: Math.min(...ratios), max: Math.max(...ratios), offMicros: median(offTimes) }
}

/** Every socket row's endpoint, on the default board with the verdict on and off, in this process. */
export async function measureVerdictCostInProcess(settings: InProcessCostSettings = IN_PROCESS_COST_SETTINGS): Promise<InProcessCost[]> {
  const results: InProcessCost[] = []
  for (const rateLimitWindow of [0, 900]) {
    const make = (verdict: boolean) => createMockServer({ scenario: 'default', clock: 'virtual', rateLimitWindow, verdict, host: '127.0.0.1' })
    const on = await make(true)
    const off = await make(false)
    try {
      // the targets are read from a board over its API, as the socket rows are; inject then sends them
      const onUrl = await on.listen(0)
      const offUrl = await off.listen(0)
      const facts = await readBoard(onUrl)
      const targets = (url: string) =>
        rateLimitWindow === 0 ? readDepth(url).then((depth) => [...openTargets(url, facts), ...depthTargets(url, depth).targets]) : Promise.resolve(limitedTargets(url, facts, 1).slice(0, 1))
      const onTargets = await targets(onUrl)
      const offTargets = await targets(offUrl)
      for (const [i, target] of onTargets.entries()) results.push(await pair(on, off, target, offTargets[i] as Target, settings))
    } finally {
      await Promise.all([on.close(), off.close()])
    }
  }
  return results
}

const percent = (x: number) => `${(x * 100).toFixed(1)} %`

export function renderInProcessCost(costs: InProcessCost[], settings: InProcessCostSettings): string {
  const width = Math.max(...costs.map((c) => c.name.length))
  return [
    `verdict cost in process (inject, no socket; ${settings.rounds} rounds × ${settings.perRound} requests per board, on and off in turns; time with it on against off, median [lowest, highest]; goal: at most 10 %):`,
    ...costs.map((c) => `  ${c.name.padEnd(width)}  ${percent(c.cost).padStart(7)}  [${percent(c.min)}, ${percent(c.max)}]  (${c.offMicros.toFixed(1)} µs an answer with it off)`),
  ].join('\n')
}
