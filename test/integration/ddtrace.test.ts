/**
 * Datadog tracer requests against a running agent with its embedded workspace: a child process
 * (ddtrace/send.ts) sends the fixture's nested trace as v0.4 msgpack, v0.5 string-table msgpack
 * and v0.3 JSON over real sockets; each is answered as tracers expect; the agent is then killed
 * with SIGKILL and restarted on the same data, and every span is found through DQL, by the
 * query the studio's trace pages use, with its parent/child ids and mapping.
 */
import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { after, before, test } from 'node:test'
import { startAgent, type AgentProcess } from '../helpers/agent-process.js'
import { agentRows, poll } from '../helpers/workspace.js'

const run = promisify(execFile)
const SENDER = new URL('./ddtrace/send.ts', import.meta.url).pathname
let agent: AgentProcess
let sent: { path: string; status: number; body: string; id: string }[] = []

before(async () => {
  agent = await startAgent()
  const out = await run(process.execPath, ['--import', 'tsx', SENDER, agent.url])
  sent = out.stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l))
  // Every request was answered: a SIGKILL now must lose none of it.
  await agent.stop('SIGKILL')
  agent = await startAgent({}, undefined, agent.dataDir)
})
after(() => agent.stop())

test('each route answers as Datadog tracers expect', () => {
  assert.deepEqual(
    sent.map((s) => [s.path, s.status]),
    [
      ['/v0.4/traces', 200],
      ['/v0.5/traces', 200],
      ['/v0.3/traces', 200],
    ],
  )
  assert.deepEqual(JSON.parse(sent[0].body), { rate_by_service: { 'service:,env:': 1 } })
  assert.equal(sent[2].body, 'OK\n')
})

test('every span is stored with its ids and mapping, found by the trace pages query', async () => {
  for (const s of sent) {
    const q = `T::re('opentelemetry|ddtrace'):(span_id, parent_id, resource, operation, service, status, span_type, source_type, http_method, db_system, db_host, error_message, duration) {trace_id = '${s.id}'}`
    const spans = await poll(async () => {
      const r = await agentRows(agent.url, q)
      return r && r.length === 3 ? r : null
    }, 60_000)
    const by = Object.fromEntries(spans.map((x) => [x.operation as string, x]))
    const root = by['express.request']
    const load = by['orders.load']
    const query = by['mysql.query']
    assert.equal(root.parent_id, '0', s.path)
    assert.equal(root.span_id, '1111111111111111111')
    assert.equal(load.parent_id, root.span_id)
    assert.equal(query.parent_id, load.span_id)
    assert.deepEqual([root.span_type, load.span_type, query.span_type], ['entry', 'local', 'entry'])
    assert.equal(root.service, 'shop-api')
    assert.equal(root.resource, 'GET /orders/:id')
    assert.equal(root.http_method, 'GET')
    assert.equal(root.source_type, 'web')
    assert.equal(root.duration, 25000)
    assert.equal(query.service, 'shop-mysql')
    assert.equal(query.status, 'error')
    assert.equal(query.db_system, 'mysql')
    assert.equal(query.db_host, 'db.internal')
    assert.equal(query.error_message, 'ER_LOCK_DEADLOCK')
    assert.equal(query.resource, 'SELECT * FROM orders WHERE id = ?')
    assert.equal(load.status, 'ok')
  }
})
