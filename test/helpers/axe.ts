// axe-core run in a page a test drives, for the browser tests' accessibility check: its
// source is given through the DevTools protocol (the pages' policies admit no inline script).
import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'

/** The serious and critical violations axe-core finds in the page, by rule id and impact. */
export async function seriousViolations(page: { evaluate(script: string): Promise<unknown> }): Promise<Array<{ id: string; impact: string; nodes: number }>> {
  await page.evaluate(await readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8'))
  const violations = (await page.evaluate(
    'axe.run(document, { resultTypes: ["violations"] }).then((r) => r.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.length })))',
  )) as Array<{ id: string; impact: string; nodes: number }>
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
}
