// `jobboard-kit scenarios`: the scenarios shipped in scenarios/, one line each.
import type { Command } from 'commander'
import { loadScenario, scenarioNames } from '../fake/scenario.js'
import type { CommandIo } from './io.js'

/** Adds `scenarios` to the jobboard-kit program. */
export function addScenariosCommand(cli: Command, io: CommandIo): void {
  cli
    .command('scenarios')
    .description('List the scenarios shipped in scenarios/.')
    .action(() => {
      for (const name of scenarioNames()) {
        const { description, counts } = loadScenario(name)
        io.stdout.write(`${name.padEnd(12)} ${counts.candidates} candidates, ${counts.applications} applications. ${description}\n`)
      }
    })
}
