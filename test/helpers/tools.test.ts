// test/helpers/tools.ts: a test whose tool is missing skips, naming the tool and its install
// command, unless JOBBOARD_KIT_REQUIRE_TOOLS=1 (.ci/run) makes it run and fail.
import t from 'tap'
import { missingTools, needs, REQUIRE_TOOLS, type ToolName } from './tools.js'

const ALL: ToolName[] = ['chromium', 'curl', 'script', 'python3', 'podman']

t.test('a missing tool skips its test with the reason and the install command', async (t) => {
  const saved = process.env[REQUIRE_TOOLS]
  t.teardown(() => {
    if (saved === undefined) delete process.env[REQUIRE_TOOLS]
    else process.env[REQUIRE_TOOLS] = saved
  })
  delete process.env[REQUIRE_TOOLS]
  const missing = new Set(missingTools(...ALL))
  for (const name of ALL) {
    const { skip } = needs(name)
    if (missing.has(name)) t.match(skip, /^needs .+, not found on this machine: install it with `apt-get install -y \S+`/, `${name} is missing: the skip says so and how to install it`)
    else t.equal(skip, false, `${name} is here: its tests run`)
  }
  process.env[REQUIRE_TOOLS] = '1'
  for (const name of ALL) t.equal(needs(name).skip, false, `with ${REQUIRE_TOOLS}=1 a test needing ${name} runs (and fails if ${name} is missing)`)
})
