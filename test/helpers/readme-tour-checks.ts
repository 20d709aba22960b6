/**
 * What the README's "Five minutes with Ferry" answers after the quick start: the key file, the
 * log file input and the pipeline, checked as a newcomer would see them. The files the tour
 * writes into `conf.d/` are listed so the README test removes them before and after.
 */
import assert from 'node:assert/strict'
import type { Check, Ran } from './readme-checks.js'

/** Files the tour creates inside the repository (relative to its root). */
export const TOUR_FILES = ['conf.d/myapp.conf', 'conf.d/pipeline/logging/myapp.js']

const values = (r: Ran) => {
  const body = JSON.parse(r.stdout) as { content: { series: { values: unknown[][] }[] }[] }
  return body.content[0].series.flatMap((s) => s.values.map((v) => v.slice(1)))
}
const silent = (r: Ran) => assert.equal(r.stdout, '')

export const TOUR_CHECKS: Check[] = [
  {
    match: /^cat data\/workspace\/default\.api-key$/,
    check: (r) => assert.match(r.stdout, /^\w{20,}\n$/),
  },
  {
    match: /^mkdir -p logs && echo 'INFO user alice logged in' >> logs\/myapp\.log$/,
    check: silent,
  },
  { match: /^cat > conf\.d\/myapp\.conf <</, check: silent },
  { match: /^mkdir -p conf\.d\/pipeline\/logging$/, check: silent },
  { match: /^cat > conf\.d\/pipeline\/logging\/myapp\.js <</, check: silent },
  // The README says new scripts load within reload_interval (5s).
  {
    match: /^echo 'WARN disk 91% full on \/var' >> logs\/myapp\.log$/,
    waitMs: 7000,
    check: silent,
  },
  {
    match: /main\.js pipeline test conf\.d\/pipeline\/logging\/myapp\.js --input logs\/myapp\.log$/,
    check: (r) => {
      const points = r.stdout
        .trim()
        .split('\n')
        .map(
          (l) =>
            JSON.parse(l) as { name: string; fields: Record<string, unknown>; run_error: unknown },
        )
      assert.deepEqual(
        points.map((p) => [p.name, p.fields.message, p.fields.status, p.fields.msg, p.run_error]),
        [['myapp', 'INFO user alice logged in', 'info', 'user alice logged in', null]],
      )
    },
  },
  {
    match: /"L::myapp:\(message\)"/,
    retryMs: 20_000,
    check: (r) => assert.deepEqual(values(r), [['INFO user alice logged in']]),
  },
  {
    match: /"L::myapp:\(status, msg\) \{status = \\"warning\\"\}"/,
    retryMs: 20_000,
    check: (r) => assert.deepEqual(values(r), [['warning', 'disk 91% full on /var']]),
  },
]
