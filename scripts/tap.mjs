// `npm test`'s runner: scripts/test-prepare.mjs (tap built for our plugins, every .ts file
// transformed once), then tap's own command line in this same process, with one change
// when coverage is off: each test file's process starts without @tapjs/processinfo.
// tap spawns every test file with processinfo's --import (and in NODE_OPTIONS, so in every
// process a test spawns too). It keeps the list of files each process loaded, for coverage
// and `tap --changed`, and to do so re-reads every module and parses every source map tap's
// own 150 modules ship: 0.2 s of CPU a process on Node 24, 0.3 s on 22 and 20 (where it
// also starts a loader thread), more than a no-op test file costs without it. With
// --disable-coverage nothing reads those lists but `--changed`, so `npm test` leaves it out;
// `npm run coverage`, `npx tap` and the other test scripts run tap as it comes.
//   node scripts/tap.mjs --disable-coverage [tap's options and files]
import { spawn } from 'node:child_process'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { pathToFileURL } from 'node:url'
import './test-prepare.mjs'

const require = createRequire(import.meta.url)
const tapCli = join(dirname(require.resolve('tap/package.json')), require('tap/package.json').bin.tap)

if (process.argv.includes('--disable-coverage')) {
  const { ProcessInfo } = await import('@tapjs/processinfo')
  // @tapjs/core's Spawn calls ProcessInfo.spawn(command, args, options) for each test file
  // (a static getter, so it is redefined rather than assigned)
  if (typeof ProcessInfo?.spawn === 'function') {
    const spawnTest = (command, args, { externalID, ...options }) =>
      spawn(
        command,
        args.filter((arg) => !(arg.startsWith('--import=') && arg.includes('@tapjs/processinfo'))),
        options,
      )
    Object.defineProperty(ProcessInfo, 'spawn', { value: spawnTest, configurable: true })
  }
}
// tap reads its options from process.argv as its own command line would
process.argv = [process.argv[0], tapCli, ...process.argv.slice(2)]
await import(pathToFileURL(tapCli).href)
