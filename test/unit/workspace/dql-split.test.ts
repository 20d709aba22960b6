/**
 * Property: a query's answer does not depend on how its data arrived. The same points written
 * as one body to one workspace and split into several bodies (in any order) to another answer
 * every query alike, for aggregates, rollups, series functions, top and wildcard sources.
 */
import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import fc from 'fast-check'
import { runQueries } from '../../../src/workspace/dql/execute.js'
import { startWorkspace, type TestWorkspace } from '../../helpers/workspace.js'

const NOW = 1_800_000_000_000
const QUERIES = [
  'M::m:(avg(v), count(*), max(v), median(v), spread(v)) [1h::10m] BY host',
  'M::m:(sum(v)) [1h::10m:last] BY host',
  'M::m:(difference(v)) {host = "a"} [1h]',
  'M::m:(top(v, 3)) [1h] BY host',
  'L::*:(count(*)) [1h] BY source',
]

let w: TestWorkspace
let n = 0
before(async () => {
  w = await startWorkspace()
})
after(() => w.stop())

async function load(bodies: { cat: string; lines: string[] }[]): Promise<string> {
  const ws = await w.service.ensureWorkspace(`split${n++}`)
  for (const b of bodies) {
    const res = await fetch(`${w.base}/v1/write/${b.cat}?token=${ws.token}`, {
      method: 'POST',
      body: b.lines.join('\n'),
    })
    assert.equal(res.status, 200, await res.text())
  }
  return ws.id
}

async function answers(workspaceId: string) {
  const deps = w.service.deps!
  const ctx = { engine: deps.engine, workspaceId, maxRows: 1000, timeoutMs: 10_000 }
  const r = await runQueries(
    { ...ctx, now: () => NOW },
    { queries: QUERIES.map((query) => ({ query })) },
  )
  return r.map((x) => x.series)
}

const point = fc.record({
  host: fc.constantFrom('a', 'b'),
  minute: fc.integer({ min: 1, max: 59 }),
  v: fc.integer({ min: -50, max: 50 }),
  log: fc.constantFrom('nginx', 'redis', 'app'),
})

test('answers are the same however the points were split into bodies', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.uniqueArray(point, {
        minLength: 1,
        maxLength: 25,
        selector: (p) => `${p.host}${p.minute}`,
      }),
      fc.array(fc.nat(), { minLength: 25, maxLength: 25 }),
      async (points, cuts) => {
        const lines = points.map((p) => ({
          metric: `m,host=${p.host} v=${p.v} ${(NOW - p.minute * 60_000) * 1_000_000}`,
          log: `${p.log},host=${p.host} message="m${p.v}" ${(NOW - p.minute * 60_000) * 1_000_000}`,
        }))
        const whole = await load([
          { cat: 'metric', lines: lines.map((l) => l.metric) },
          { cat: 'logging', lines: lines.map((l) => l.log) },
        ])
        // Each point goes to one of up to four bodies, the bodies sent in reverse.
        const parts = Array.from({ length: 4 }, (_, k) => ({
          metric: lines.filter((_, i) => cuts[i] % 4 === k).map((l) => l.metric),
          log: lines.filter((_, i) => cuts[i] % 4 === k).map((l) => l.log),
        })).reverse()
        const split = await load(
          parts.flatMap((p) => [
            ...(p.metric.length ? [{ cat: 'metric', lines: p.metric }] : []),
            ...(p.log.length ? [{ cat: 'logging', lines: p.log }] : []),
          ]),
        )
        assert.deepEqual(await answers(split), await answers(whole))
      },
    ),
    { numRuns: Number(process.env.FUZZ_RUNS ?? 6) },
  )
})
