// `jobboard-kit openapi`: prints the OpenAPI 3.1 document of the API the fake serves, as
// /openapi.json and /openapi.yaml serve it, generated from schemas/.
import { type Command, Option } from 'commander'
import { writeFile } from 'node:fs/promises'
import { buildApp } from '../fake/app.js'
import type { CommandIo } from './io.js'

/** Adds `openapi` to the jobboard-kit program. */
export function addOpenapiCommand(cli: Command, io: CommandIo): void {
  cli
    .command('openapi')
    .description('Print the OpenAPI 3.1 document of the API the fake serves, generated from schemas/.')
    .addOption(new Option('--format <format>', 'json or yaml').choices(['json', 'yaml']).default('json'))
    .option('--out <file>', 'write it to a file instead')
    .action(async ({ out, format }: { out?: string; format: 'json' | 'yaml' }) => {
      const app = await buildApp({ scenario: 'empty' })
      await app.ready()
      // YAML as /openapi.yaml serves it (@fastify/swagger writes it with the yaml library)
      const document = format === 'yaml' ? app.swagger({ yaml: true }) : `${JSON.stringify(app.swagger(), null, 2)}\n`
      await app.close()
      if (out) await writeFile(out, document)
      else io.stdout.write(document)
    })

}
