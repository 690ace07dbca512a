// The metrics group: metrics/list against its schema, every label the spec names,
// months newest first with none missing, and each total the sum of its months. A month
// is read in any usual month-name style (`November`, `Nov`): the spec says "month name".
import type { Minimal } from '@tapjs/core'
import { metricsAnswer } from '../../../schemas/index.js'
import { METRIC_LABELS } from '../../../schemas/values.js'
import { check, endpoint, need } from '../checks.js'
import type { RunContext } from '../context.js'
import { bodyOrSkip } from '../plan-basis.js'
import { int, recs, str, succeeded, type Rec } from '../records.js'
import { monthNumber, short } from '../validate.js'

/** A month as a count of months since year 0, or undefined when it does not read as one. */
function monthIndex(aggregation: Rec): number | undefined {
  const year = str(aggregation.year)
  const month = monthNumber(aggregation.month)
  if (year === undefined || !/^[0-9]{4}$/.test(year) || month === undefined) return undefined
  return Number(year) * 12 + month
}

/** What a month that does not read as one is, in words: what was expected and what came. */
const unreadable = (aggregation: Rec | undefined) =>
  monthNumber(aggregation?.month) === undefined
    ? `month ${short(aggregation?.month)} is not a month name`
    : `year ${short(aggregation?.year)} is not a four-digit year`

export function metricsGroup(root: Minimal, ctx: RunContext): void {
  const metrics = async () => recs(bodyOrSkip(await ctx.plan.metrics(), 'metrics/list').metrics)
  endpoint(root, 'metrics/list', (t) => {
    check(t, 'the answer fits the metrics schema', async (a) => {
      const answer = need(await ctx.plan.metrics())
      if (!a.ok(succeeded(answer), `answers HTTP ${answer.status}, a success`, `answered HTTP ${answer.status}, not a success (2xx)`)) return
      ctx.fits(a, metricsAnswer, answer, 'metrics/list', 'the answer')
    })
    check(t, 'every label the spec names is there once', async (a) => {
      const labels = (await metrics()).map((m) => str(m.label))
      const problems = METRIC_LABELS.flatMap((label) => {
        const count = labels.filter((l) => l === label).length
        return count === 1 ? [] : [count === 0 ? `${label} is missing` : `${label} is there ${count} times`]
      })
      a.none(problems, `all ${METRIC_LABELS.length} labels are there`)
    })
    check(t, 'months are newest first within each metric', async (a) => {
      const problems = (await metrics()).flatMap((m) => {
        const months = recs(m.aggregations).map(monthIndex)
        const bad = months.indexOf(undefined)
        if (bad >= 0) return [`${String(m.label)}: aggregation ${bad + 1} cannot be ordered: ${unreadable(recs(m.aggregations)[bad])}`]
        const at = months.findIndex((month, i) => i > 0 && (months[i - 1] as number) <= (month as number))
        return at < 0 ? [] : [`${String(m.label)}: month ${at + 1} (${JSON.stringify(recs(m.aggregations)[at])}) is not older than the one before`]
      })
      a.none(problems, 'every metric lists its newest month first')
    })
    check(t, 'no month is missing between the first and the last of a metric', async (a) => {
      const problems = (await metrics()).flatMap((m) => {
        const months = recs(m.aggregations).map(monthIndex)
        const gap = months.findIndex((month, i) => i > 0 && month !== undefined && months[i - 1] !== undefined && (months[i - 1] as number) - month > 1)
        return gap < 0 ? [] : [`${String(m.label)}: months are missing before ${JSON.stringify(recs(m.aggregations)[gap])}`]
      })
      a.none(problems, 'months without activity are listed with total 0')
    })
    check(t, 'each total is the sum of its months', async (a) => {
      const problems = (await metrics()).flatMap((m) => {
        const sum = recs(m.aggregations).reduce((s, agg) => s + (int(agg.total) ?? Number.NaN), 0)
        return int(m.total) === sum ? [] : [`${String(m.label)}: total ${JSON.stringify(m.total)} but its months add up to ${sum}`]
      })
      a.none(problems, 'every total adds up')
    })
  })
}
