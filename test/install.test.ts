// A clean install, read from package-lock.json (what `npm ci` installs, dev dependencies
// included): every package fits the Node versions package.json's `engines` claims (npm warns
// EBADENGINE otherwise), and every install script is approved in `allowScripts` (npm 11 lists
// the others after every install; npm 12 skips them).
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import t from 'tap'
import { ROOT } from './helpers/cli.js'

interface Entry {
  version?: string
  engines?: { node?: string } | string[]
  hasInstallScript?: boolean
}
const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, Entry> }
const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string }; allowScripts?: Record<string, boolean> }
// semver, as npm reads ranges (fastify's own dependency)
const semver = createRequire(join(ROOT, 'package.json'))('semver') as { subset(a: string, b: string): boolean }

/** A package's name from its folder in the lock: the part after the last node_modules/. */
const nameOf = (folder: string) => folder.slice(folder.lastIndexOf('node_modules/') + 'node_modules/'.length)
const installed = Object.entries(lock.packages).filter(([folder]) => folder !== '')

t.test("every package in the lock fits the Node versions package.json's engines claims", async (t) => {
  const claimed = manifest.engines.node
  t.equal(lock.packages['']?.engines && (lock.packages[''].engines as { node: string }).node, claimed, 'the lock has the same engines')
  const misfits = installed.flatMap(([folder, entry]) => {
    const wanted = Array.isArray(entry.engines) ? undefined : entry.engines?.node
    return wanted !== undefined && !semver.subset(claimed, wanted) ? [`${nameOf(folder)}@${entry.version} wants Node ${wanted}`] : []
  })
  t.same(misfits, [], `each fits ${claimed}`)
})

t.test('every install script in the lock is approved in allowScripts', async (t) => {
  const approved = manifest.allowScripts ?? {}
  const withScripts = installed.filter(([, entry]) => entry.hasInstallScript).map(([folder, entry]) => ({ name: nameOf(folder), version: entry.version }))
  t.ok(withScripts.length > 0, 'the lock marks install scripts (esbuild has one)')
  for (const { name, version } of withScripts) {
    t.ok(approved[name] === true || approved[`${name}@${version}`] === true, `${name}@${version}'s install script is approved`)
  }
  t.same(
    Object.keys(approved).filter((key) => !withScripts.some(({ name, version }) => key === name || key === `${name}@${version}`)),
    [],
    'and allowScripts names nothing else',
  )
})
