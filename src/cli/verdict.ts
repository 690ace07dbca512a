// `jobboard-kit verdict --url http://...`: the verdict of a running fake as its readable
// account (GET /__mock/verdict, and /__mock/requests for the requests its findings
// name). Exit codes: 0 when the verdict passes, 1 when it fails, 2 when the fake cannot
// be asked (the message says why). Also serve's shutdown: the verdict's files and account.
import type { Command } from 'commander'
import { writeFile } from 'node:fs/promises'
import type { MockServer } from '../fake/server.js'
import { verdictJson, verdictJunit, verdictText } from '../watch/verdict/verdict-outputs.js'
import { boardDayFile } from '../fake/board-view.js'
import type { DetailedVerdict, Shown, Verdict } from '../watch/verdict/verdict-types.js'
import type { JournalEntry } from '../core/types.js'

interface Output {
  write(text: string): unknown
}

export interface VerdictFlags {
  url: string
  user?: string
  controlToken?: string
  json?: boolean
}

/** Asks a running fake for its verdict and the requests it names. */
export async function fetchVerdict(flags: VerdictFlags): Promise<DetailedVerdict> {
  const base = flags.url.replace(/\/+$/, '')
  const headers: Record<string, string> = flags.controlToken ? { authorization: `Bearer ${flags.controlToken}` } : {}
  const ask = async <T>(path: string): Promise<T> => {
    const answer = await fetch(`${base}${path}`, { headers, signal: AbortSignal.timeout(30_000) })
    const body = (await answer.json().catch(() => undefined)) as { message?: string } | undefined
    if (!answer.ok) throw new Error(`${path} answered ${answer.status}${body?.message ? `: ${body.message}` : ''}`)
    return body as T
  }
  const verdict = await ask<Verdict>(`/__mock/verdict${flags.user === undefined ? '' : `?user=${encodeURIComponent(flags.user)}`}`)
  const named = new Set(verdict.rules.flatMap((rule) => rule.findings.flatMap((finding) => finding.requests)))
  const requests: Record<number, Shown> = {}
  if (named.size > 0) {
    const journal = await ask<{ data: JournalEntry[] }>('/__mock/requests')
    for (const entry of journal.data) {
      if (entry.id !== undefined && named.has(entry.id)) requests[entry.id] = { id: entry.id, method: entry.method, url: entry.url, time: entry.time }
    }
  }
  return { ...verdict, requests }
}

export async function verdictCommand(flags: VerdictFlags, out: Output, err: Output): Promise<number> {
  let verdict: DetailedVerdict
  try {
    if (!URL.canParse(flags.url) || !/^https?:/i.test(flags.url)) throw new Error(`--url ${JSON.stringify(flags.url)} is not an http(s) URL`)
    verdict = await fetchVerdict(flags)
  } catch (error) {
    err.write(`jobboard-kit verdict: ${(error as Error).message}\n`)
    return 2
  }
  out.write(flags.json ? `${JSON.stringify(verdictJson(verdict), null, 2)}\n` : verdictText(verdict))
  return verdict.outcome === 'pass' ? 0 : 1
}

export function addVerdictCommand(cli: Command, io: { stdout: Output; stderr: Output }, done: (code: number) => void): void {
  cli
    .command('verdict')
    .description("Print a running fake's verdict on its client's requests; exit 1 when it fails, 2 when the fake cannot be asked.")
    .requiredOption('--url <url>', 'the fake, e.g. http://127.0.0.1:4010')
    .option('--user <user>', "judge only this API user's requests")
    .option('--control-token <token>', 'bearer token of the control API, when the fake has one')
    .option('--json', 'print the JSON answer instead of the account')
    .action(async (flags: VerdictFlags) => done(await verdictCommand(flags, io.stdout, io.stderr)))
}

export interface ShutdownVerdict {
  verdictJson?: string | undefined
  verdictJunit?: string | undefined
  verdictHtml?: string | undefined
  verdictExit?: boolean | undefined
}

/**
 * serve, on SIGINT/SIGTERM: the verdict's files, its account on the log, and whether it
 * turns the exit code to 1. Taken before the fake closes; undefined when the verdict is off.
 */
export async function shutdownVerdict(server: MockServer, options: ShutdownVerdict, log: Output | undefined, err: Output): Promise<'pass' | 'fail' | undefined> {
  if (!server.options.verdict) return undefined
  const verdict = server.verdict()
  const writes: Array<Promise<void>> = []
  if (options.verdictJson) writes.push(writeFile(options.verdictJson, `${JSON.stringify(verdictJson(verdict), null, 2)}\n`))
  if (options.verdictJunit) writes.push(writeFile(options.verdictJunit, verdictJunit(verdict)))
  // the page of /__mock/ui with its day inside: imported only when asked for
  if (options.verdictHtml) writes.push(boardDayFile(server.app.board, server.app.controller).then((html) => writeFile(options.verdictHtml as string, html)))
  const results = await Promise.allSettled(writes)
  for (const result of results) if (result.status === 'rejected') err.write(`jobboard-kit: cannot write the verdict: ${(result.reason as Error).message}\n`)
  if (log) log.write(verdictText(verdict))
  else if (options.verdictExit && verdict.outcome === 'fail') err.write(verdictText(verdict))
  return verdict.outcome
}
