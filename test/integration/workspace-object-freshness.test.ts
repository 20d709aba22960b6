/**
 * Object freshness: host and process lists show only objects whose newest report is within
 * `object_freshness`; the others drop out of the lists but stay in history for DQL.
 */
import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import { query, startWorkspace, writeLp, type TestWorkspace } from '../helpers/workspace.js'

let w: TestWorkspace
const now = BigInt(Date.now()) * 1_000_000n
const minutesAgo = (m: number) => now - BigInt(m) * 60_000_000_000n

before(async () => {
  w = await startWorkspace({ ENV_WORKSPACE_OBJECT_FRESHNESS: '15m' })
  const objects = [
    `HOST,name=live os="linux" ${minutesAgo(1)}`,
    `HOST,name=gone os="linux" ${minutesAgo(20)}`,
    `HOST,name=back os="linux" ${minutesAgo(60)}`,
    `HOST,name=back os="linux" ${minutesAgo(14)}`,
    `host_processes,name=live_1,host=live process_name="nginx" ${minutesAgo(2)}`,
    `host_processes,name=gone_2,host=gone process_name="nginx" ${minutesAgo(16)}`,
  ].join('\n')
  assert.equal((await writeLp(w, 'object', objects)).status, 200)
})
after(() => w.stop())

async function names(kind: 'host' | 'process'): Promise<{ names: unknown[]; total: unknown }> {
  const res = await fetch(`${w.base}/api/v1/object/${kind}/list`, {
    headers: { 'DF-API-KEY': w.key },
  })
  assert.equal(res.status, 200)
  const body = (await res.json()) as {
    content: { name: string }[]
    pageInfo: { totalCount: number }
  }
  return { names: body.content.map((o) => o.name), total: body.pageInfo.totalCount }
}

test('host and process lists leave out objects not reported within the window', async () => {
  assert.deepEqual(await names('host'), { names: ['back', 'live'], total: 2 })
  assert.deepEqual(await names('process'), { names: ['live_1'], total: 1 })
})

test('objects out of the lists stay in history', async () => {
  const r = await query(w, [{ query: 'O::HOST:(name) { name = "gone" }' }])
  assert.equal(r.status, 200)
  assert.deepEqual(
    r.body.content[0].series[0].values.map((v) => v[1]),
    ['gone'],
  )
})
