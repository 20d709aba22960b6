/**
 * Retention per category, enforced by the background job: rows older than their category's
 * retention go, newer rows and categories kept forever (0) stay, and the deletes are counted.
 */
import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import { tableName } from '../../src/workspace/store/names.js'
import { poll, startWorkspace, writeLp, type TestWorkspace } from '../helpers/workspace.js'

let w: TestWorkspace
const now = BigInt(Date.now()) * 1_000_000n
const hours = (h: number) => now - BigInt(h) * 3_600_000_000_000n

before(async () => {
  w = await startWorkspace({
    ENV_WORKSPACE_RETENTION_METRIC: '1h',
    ENV_WORKSPACE_RETENTION_LOGGING: '0',
    ENV_WORKSPACE_RETENTION_DEFAULT: '3h',
    ENV_WORKSPACE_RETENTION_INTERVAL: '200ms',
  })
})
after(() => w.stop())

async function times(category: 'metric' | 'logging' | 'object', measurement: string) {
  const deps = w.service.deps!
  const ws = await deps.accounts.ensure('test')
  const ref = deps.engine.tableRef(ws.id, tableName(category, measurement))!
  const r = await deps.engine.query(`SELECT "time" FROM ${ref} ORDER BY 1`)
  return r.rows.map((row) => BigInt(row[0] as bigint))
}

test('the background job deletes rows older than their category keeps', async () => {
  const metric = [`cpu v=1 ${hours(2)}`, `cpu v=2 ${hours(0)}`].join('\n')
  const logs = [`app message="old" ${hours(48)}`, `app message="new" ${hours(0)}`].join('\n')
  const objects = [`HOST,name=a v=1 ${hours(4)}`, `HOST,name=b v=1 ${hours(2)}`].join('\n')
  assert.equal((await writeLp(w, 'metric', metric)).status, 200)
  assert.equal((await writeLp(w, 'logging', logs)).status, 200)
  assert.equal((await writeLp(w, 'object', objects)).status, 200)
  await poll(async () => ((await times('metric', 'cpu')).length === 1 ? true : null))
  assert.deepEqual(await times('metric', 'cpu'), [hours(0)])
  assert.deepEqual(await times('logging', 'app'), [hours(48), hours(0)])
  await poll(async () => ((await times('object', 'HOST')).length === 1 ? true : null))
  assert.deepEqual(await times('object', 'HOST'), [hours(2)])
  const metrics = await (await fetch(`${w.base}/metrics`)).text()
  const ws = await w.service.deps!.accounts.ensure('test')
  const line = (c: string) =>
    `ferry_workspace_retention_deleted_rows_total{workspace="${ws.id}",category="${c}"} 1`
  assert.ok(metrics.includes(line('metric')), metrics)
  assert.ok(metrics.includes(line('object')), metrics)
  const deleted = metrics.split('\n').filter((l) => l.startsWith('ferry_workspace_retention_del'))
  assert.deepEqual(deleted, [line('metric'), line('object')])
})
