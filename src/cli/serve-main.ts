// `jobboard-kit serve` alone: the program with only its `serve` command, which
// scripts/bundle.mjs bundles apart (dist/lib/cli-serve.cjs) and bin/jobboard-kit.js starts
// for `serve`. The other commands' modules stay out of that file and of its code cache: on
// Node 24 a start read, deserialized and kept on the heap some 17 % more CPU with them
// (docs/architecture.md, Start-up). The same serve, root, help and errors as main.ts's.
import type { Command } from 'commander'
import { type CliProcess, oneLineUsageErrors, processIo, programRoot, runProgram } from './program.js'
import { addServeCommand } from './serve.js'

/** The program with `serve` only, as main.ts's program has it. */
export function serveProgram(io: CliProcess = processIo, done: (code: number) => void = () => {}): Command {
  const cli = programRoot(io)
  addServeCommand(cli, io, done)
  return oneLineUsageErrors(cli)
}

/** Runs `jobboard-kit serve …` and answers its exit code, as main.ts's main does. */
export function main(argv: string[] = process.argv, io: CliProcess = processIo): Promise<number> {
  return runProgram(argv, io, serveProgram)
}
