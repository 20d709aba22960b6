/**
 * The real OpenTelemetry JS SDK against a running agent with its embedded workspace: an
 * application (otel/sdk-app.ts, a child process) exports a nested trace, a counter, a
 * histogram and logs through the OTLP/HTTP protobuf exporters, another through the OTLP/HTTP
 * JSON exporters and a third through the OTLP/gRPC exporters. The agent is killed with
 * SIGKILL as soon as the applications have had their exports answered, then restarted on the
 * same data: every span, metric point and log line is found through DQL with the expected
 * mapping, so nothing answered was lost.
 */
import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { after, before, test } from 'node:test'
import { startAgent, type AgentProcess } from '../helpers/agent-process.js'
import { agentRows, poll } from '../helpers/workspace.js'

const run = promisify(execFile)
const APP = new URL('./otel/sdk-app.ts', import.meta.url).pathname
let agent: AgentProcess
const traces: Record<string, string> = {}
const PROTOCOLS = ['proto', 'json', 'grpc']
const GRPC_ENV = { ENV_OTLP_GRPC_LISTEN: '127.0.0.1:0' }

before(async () => {
  agent = await startAgent(GRPC_ENV)
  const grpcLine = agent.logs.find((l) => l.includes('"otlp_grpc_started"')) ?? ''
  const grpcUrl = `http://127.0.0.1:${/"port":(\d+)/.exec(grpcLine)?.[1]}`
  for (const protocol of PROTOCOLS) {
    const target = protocol === 'grpc' ? grpcUrl : agent.url
    const args = ['--import', 'tsx', APP, target, protocol, `it-${protocol}`]
    const out = await run(process.execPath, args)
    traces[protocol] = out.stdout.trim()
    assert.match(traces[protocol], /^[0-9a-f]{32}$/)
  }
  // Every export was answered: a SIGKILL now must lose none of it.
  await agent.stop('SIGKILL')
  agent = await startAgent(GRPC_ENV, undefined, agent.dataDir)
})
after(() => agent.stop())

for (const protocol of PROTOCOLS) {
  test(`${protocol}: the nested trace is found with its parent/child order and mapping`, async () => {
    const q = `T::opentelemetry:(span_id, parent_id, resource, operation, service, status, span_type, span_kind, source_type, http_method, db_system, error_message, duration) {trace_id = '${traces[protocol]}'}`
    const spans = await poll(async () => {
      const r = await agentRows(agent.url, q)
      return r && r.length === 3 ? r : null
    }, 60_000)
    const by = Object.fromEntries(spans.map((s) => [s.resource as string, s]))
    assert.equal(by.checkout.parent_id, '0')
    assert.equal(by.db.parent_id, by.checkout.span_id)
    assert.equal(by.cache.parent_id, by.db.span_id)
    assert.deepEqual(
      [by.checkout.span_type, by.db.span_type, by.cache.span_type],
      ['entry', 'local', 'exit'],
    )
    assert.equal(by.checkout.service, `it-${protocol}`)
    assert.equal(by.checkout.operation, 'checkout')
    assert.equal(by.checkout.http_method, 'POST')
    assert.equal(by.checkout.source_type, 'web')
    assert.equal(by.db.db_system, 'postgresql')
    assert.equal(by.db.status, 'error')
    assert.equal(by.db.error_message, 'deadlock')
    assert.equal(by.cache.status, 'ok')
    assert.equal(by.cache.span_kind, 'internal')
    assert.equal(typeof by.checkout.duration, 'number')
  })

  test(`${protocol}: the counter and the histogram are metric points`, async () => {
    const q = `M::otel_service:(orders, latency_count, latency_sum, latency_min, latency_max) {service_name = 'it-${protocol}'}`
    const points = await poll(async () => {
      const r = await agentRows(agent.url, q)
      return r && r.some((p) => p.orders !== null) && r.some((p) => p.latency_count !== null)
        ? r
        : null
    }, 60_000)
    const counter = points.find((p) => p.orders !== null)!
    assert.equal(counter.orders, 3)
    const hist = points.find((p) => p.latency_count !== null)!
    assert.deepEqual(
      [hist.latency_count, hist.latency_sum, hist.latency_min, hist.latency_max],
      [2, 55, 5, 50],
    )
  })

  test(`${protocol}: the log lines carry status, service and the trace id`, async () => {
    const q = `L::\`it-${protocol}\`:(message, status, service, trace_id)`
    const logs = await poll(async () => {
      const r = await agentRows(agent.url, q)
      return r && r.length === 2 ? r : null
    }, 60_000)
    const by = Object.fromEntries(logs.map((l) => [l.message as string, l]))
    assert.equal(by['cache miss'].status, 'info')
    assert.equal(by['db failed'].status, 'error')
    assert.equal(by['db failed'].service, `it-${protocol}`)
    assert.equal(by['db failed'].trace_id, traces[protocol])
  })
}
