/**
 * The real Datadog tracer (dd-trace) against a running agent with its embedded workspace: an
 * application (ddtrace/dd-app.ts, a child process) sends a nested trace through the tracer's
 * own exporter, once with protocol v0.4 and once with v0.5; both traces are found through DQL
 * with their parent/child ids, services, status and mapping.
 */
import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { after, before, test } from 'node:test'
import { startAgent, type AgentProcess } from '../helpers/agent-process.js'
import { agentRows, poll } from '../helpers/workspace.js'

const run = promisify(execFile)
const APP = new URL('./ddtrace/dd-app.ts', import.meta.url).pathname
const QUIET = {
  DD_INSTRUMENTATION_TELEMETRY_ENABLED: 'false',
  DD_REMOTE_CONFIGURATION_ENABLED: 'false',
  DD_RUNTIME_METRICS_ENABLED: 'false',
}
let agent: AgentProcess
const traces: Record<string, string> = {}

before(async () => {
  agent = await startAgent()
  for (const protocol of ['0.4', '0.5']) {
    const args = ['--import', 'tsx', APP, agent.url, `dd-${protocol}`, protocol]
    const out = await run(process.execPath, args, { env: { ...process.env, ...QUIET } })
    traces[protocol] = out.stdout.trim().split('\n').at(-1) ?? ''
    assert.match(traces[protocol], /^\d+$/)
  }
})
after(() => agent.stop())

for (const protocol of ['0.4', '0.5']) {
  test(`dd-trace with protocol v${protocol}: the nested trace is stored and mapped`, async () => {
    const q = `T::ddtrace:(trace_id, span_id, parent_id, resource, operation, service, status, span_type, source_type, http_method, db_system, error_message) {service = 'dd-${protocol}'}`
    const spans = await poll(async () => {
      const r = await agentRows(agent.url, q)
      return r && r.length === 2 ? r : null
    }, 60_000)
    const by = Object.fromEntries(spans.map((s) => [s.operation as string, s]))
    const root = by.checkout
    const db = by['db.query']
    assert.equal(root.parent_id, '0')
    assert.equal(db.parent_id, root.span_id)
    // 128-bit ids: the stored id ends in the low 64 bits, in hex.
    assert.ok(
      String(root.trace_id).endsWith(BigInt(traces[protocol]).toString(16).padStart(16, '0')),
    )
    assert.equal(db.trace_id, root.trace_id)
    assert.deepEqual([root.span_type, db.span_type], ['entry', 'exit'])
    assert.equal(root.resource, 'POST /checkout')
    assert.equal(root.http_method, 'POST')
    assert.equal(root.source_type, 'web')
    assert.equal(root.status, 'ok')
    assert.equal(db.status, 'error')
    assert.equal(db.db_system, 'postgres')
    assert.equal(db.error_message, 'deadlock')
    assert.equal(db.source_type, 'db')
  })
}
