// `node --import ./test/helpers/use-nock.mjs`: with JOBBOARD_KIT_NOCK_DIR set to a folder
// holding node_modules/nock, the bare specifier `nock` resolves there, so the nock tests
// run against another nock (15) without touching package-lock.json's nock 14.
import { register } from 'node:module'
import { pathToFileURL } from 'node:url'

const dir = process.env.JOBBOARD_KIT_NOCK_DIR
if (dir) register('./nock-hooks.mjs', import.meta.url, { data: { parentURL: pathToFileURL(`${dir.replace(/\/+$/, '')}/`).href } })
