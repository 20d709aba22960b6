/**
 * DQL paging and bucketing as clients rely on them (issue 15): search_after pages through rows
 * sharing a millisecond (and a nanosecond) without losing or repeating any; max_point is exact.
 */
import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import { query, startWorkspace, writeLp, type TestWorkspace } from '../helpers/workspace.js'

let w: TestWorkspace
before(async () => {
  w = await startWorkspace()
})
after(() => w.stop())

const T = 1_700_000_000_000

test('search_after pages losslessly through rows sharing a millisecond', async () => {
  // Seven rows: four in one millisecond (two of them in the same nanosecond), three apart.
  const ns = [`${T}000000`, `${T}000000`, `${T}000001`, `${T}000500`, `${T - 1}000000`]
  const lines = ns.map((t, i) => `page v=${i} ${t}`)
  lines.push(`page v=5 ${T - 2}000000`, `page v=6 ${T + 1}000000`)
  assert.equal((await writeLp(w, 'metric', lines.join('\n'))).status, 200)
  const seen: unknown[] = []
  const cursors: unknown[] = []
  let after: unknown[] = []
  for (let page = 0; page < 5; page++) {
    const q = { query: 'M::page', time_range: [T - 10, T + 10], limit: 2, search_after: after }
    const { body } = await query(w, [q])
    const r = body.content[0]
    seen.push(...(r.series[0]?.values.map((v) => v[1]) ?? []))
    cursors.push(r.search_after)
    after = r.search_after!
    if (!r.series.length) break
  }
  assert.deepEqual(seen, [6, 3, 2, 1, 0, 4, 5])
  assert.deepEqual(cursors, [[T, 500, 3], [T, 0, 1], [T - 1, 0, 4], [T - 2, 0, 5], []])
})

test('max_point is exact: never more buckets than asked, whatever the range alignment', async () => {
  const lines = Array.from({ length: 10 }, (_, i) => `mp v=1 ${T - 9_000 + i * 1000}000000`)
  assert.equal((await writeLp(w, 'metric', lines.join('\n'))).status, 200)
  const q = {
    query: 'M::mp:(count(v)) [::1s]',
    time_range: [T - 9_500, T + 500],
    max_point: 2,
  }
  const { body } = await query(w, [q])
  assert.deepEqual(body.content[0].series[0].values, [
    [T - 4_500, 5],
    [T - 9_500, 5],
  ])
})
