/**
 * The DDL wait on a cluster, against one scripted HTTP node (the far side): an ON CLUSTER
 * statement carries `ddl_wait` as ClickHouse's `distributed_ddl_task_timeout` (whole seconds);
 * one that not every host ran in time (ClickHouse's code 159) is taken as done and told to the
 * listener, which the workspace's event counts in /metrics and logs; any other error is thrown
 * and told to nobody.
 */
import assert from 'node:assert/strict'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { after, before, test } from 'node:test'
import { Registry } from 'prom-client'
import { createLogger } from '../../../src/telemetry/logger.js'
import { WorkspaceEvents } from '../../../src/workspace/events.js'
import { ClickHouseClient } from '../../../src/workspace/store/clickhouse/client.js'
import { TableLayout } from '../../../src/workspace/store/clickhouse/layout.js'
import { captureLog } from '../../helpers/log-capture.js'

const UNFINISHED =
  'Code: 159, e.displayText() = DB::Exception: Watching task /clickhouse/task_queue/ddl/query-0000000007 is executing longer than distributed_ddl_task_timeout (=3) seconds. There are 1 unfinished hosts (0 of them are currently active), they are going to execute the query in background'
const seen: { sql: string; timeout: string | null }[] = []
let answer = { status: 500, text: UNFINISHED }

const server = http.createServer((req, res) => {
  let sql = ''
  req.on('data', (d: Buffer) => (sql += d.toString()))
  req.on('end', () => {
    const params = new URL(req.url ?? '/', 'http://x').searchParams
    seen.push({ sql, timeout: params.get('distributed_ddl_task_timeout') })
    res.statusCode = answer.status
    res.end(answer.text)
  })
})
let client: ClickHouseClient

before(async () => {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  client = new ClickHouseClient({
    urls: [`http://127.0.0.1:${(server.address() as AddressInfo).port}`],
    user: 'default',
    password: '',
    tls: { ca: '', cert: '', key: '', insecureSkipVerify: false },
    connectTimeoutMs: 500,
    maxConnections: 2,
  })
})
after(async () => {
  await client.close()
  server.close()
})

const cluster = { data: 'ferry', nodes: 'ferry_nodes' }

test('an unfinished ON CLUSTER ALTER is taken as done, told, counted and logged', async () => {
  const { lines, destination } = captureLog()
  const registry = new Registry()
  const events = new WorkspaceEvents(createLogger('info', { destination }), registry)
  const layout = new TableLayout(client, cluster, 5_000, 2_500)
  const told: string[] = []
  layout.onUnfinished = (statement, waitedMs) => {
    assert.ok(waitedMs >= 0 && waitedMs < 5_000, String(waitedMs))
    told.push(statement)
    events.ddlUnfinished(statement, waitedMs)
  }
  seen.length = 0
  await layout.alterDataTable('ferry_w_1', 'M::cpu', 'ADD COLUMN `host` Nullable(String)')
  assert.deepEqual(
    seen.map((s) => s.timeout),
    ['3', '3'],
  )
  assert.deepEqual(told, [
    'ALTER TABLE `ferry_w_1_local`.`M::cpu` ON CLUSTER `ferry` ADD COLUMN `host` Nullable(String)',
    'ALTER TABLE `ferry_w_1`.`M::cpu` ON CLUSTER `ferry_nodes` ADD COLUMN `host` Nullable(String)',
  ])
  await new Promise((r) => setImmediate(r))
  assert.deepEqual(
    lines.map((l) => [l.level, l.event, l.statement]),
    told.map((s) => ['warn', 'clickhouse_ddl_unfinished', s]),
  )
  const text = await registry.getSingleMetricAsString(
    'ferry_workspace_clickhouse_ddl_unfinished_total',
  )
  assert.ok(text.endsWith('\nferry_workspace_clickhouse_ddl_unfinished_total 2'), text)
})

test('another error of an ON CLUSTER statement is thrown and not told', async () => {
  answer = { status: 500, text: 'Code: 62, e.displayText() = DB::Exception: Syntax error' }
  const layout = new TableLayout(client, cluster, 5_000)
  let told = 0
  layout.onUnfinished = () => told++
  seen.length = 0
  await assert.rejects(
    layout.alterDataTable('ferry_w_1', 'M::cpu', 'ADD COLUMN `x` Nullable(String)'),
    /Syntax error/,
  )
  assert.equal(told, 0)
  assert.deepEqual(
    seen.map((s) => s.timeout),
    ['10'],
  )
})
