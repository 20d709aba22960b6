/**
 * Isolation of writes (issue 15): keys and measurements differing only in case are two
 * columns and two tables, never an error; a body that cannot be stored fails alone; one
 * workspace's poison never fails another's writes; the ingest quota answers 429.
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
const range = { time_range: [T - 1000, T + 1000] }

test('tag keys differing only in case are two columns: the poison point is stored', async () => {
  const res = await writeLp(w, 'metric', `poison,host=a,Host=b v=1 ${T}000000`)
  assert.equal(res.status, 200)
  const { body } = await query(w, [{ query: 'M::poison', ...range }])
  assert.deepEqual(body.content[0].series, [
    { name: 'poison', columns: ['time', 'host', 'Host', 'v'], values: [[T, 'a', 'b', 1]] },
  ])
  const one = await query(w, [{ query: 'M::poison:(Host) {host = "a"}', ...range }])
  assert.deepEqual(one.body.content[0].series[0].values, [[T, 'b']])
})

test('measurements differing only in case are two tables', async () => {
  assert.equal((await writeLp(w, 'metric', `CPU v=1 ${T}000000`)).status, 200)
  assert.equal((await writeLp(w, 'metric', `cpu v=2 ${T}000000`)).status, 200)
  const { body } = await query(w, [
    { query: 'M::CPU', ...range },
    { query: 'M::cpu', ...range },
  ])
  assert.deepEqual(
    body.content.map((r) => r.series),
    [
      [{ name: 'CPU', columns: ['time', 'v'], values: [[T, 1]] }],
      [{ name: 'cpu', columns: ['time', 'v'], values: [[T, 2]] }],
    ],
  )
})

test('a key spelled like the time column in another case is a column of its own', async () => {
  const res = await writeLp(w, 'metric', `clock,TIME=x Time=5 ${T}000000`)
  assert.equal(res.status, 200)
  const { body } = await query(w, [{ query: 'M::clock', ...range }])
  assert.deepEqual(body.content[0].series, [
    { name: 'clock', columns: ['time', 'TIME', 'Time'], values: [[T, 'x', 5]] },
  ])
})

test('a second workspace writing beside the poison one gets 200 for every write', async () => {
  const b = await w.service.ensureWorkspace('b')
  const poison = Array.from({ length: 20 }, (_, i) =>
    writeLp(w, 'metric', `p${i % 3},k=a,K=b,kK=c v=1 ${T}000000`),
  )
  const good = Array.from({ length: 20 }, (_, i) =>
    fetch(`${w.base}/v1/write/metric?token=${b.token}`, {
      method: 'POST',
      body: `ok,i=${i} v=${i} ${T}000000`,
    }),
  )
  const statuses = (await Promise.all([...poison, ...good])).map((r) => r.status)
  assert.deepEqual(statuses, new Array(40).fill(200))
})
