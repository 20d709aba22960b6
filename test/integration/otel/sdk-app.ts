/**
 * An application instrumented with the unmodified OpenTelemetry JS SDK, run as a child process
 * by otel-sdk.test.ts: `sdk-app.ts <agent url> <proto|json|grpc> <service>` (for grpc, the
 * receiver's `http://host:port`). It makes a nested trace
 * (checkout → db → cache, the db span failing), a counter, a histogram and two log lines inside
 * the trace, exports them through the chosen OTLP exporters (HTTP ones to the standard paths),
 * shuts the SDK down (which waits for every export to be answered) and prints the trace id.
 */
import { trace, metrics, SpanStatusCode } from '@opentelemetry/api'
import { logs, SeverityNumber } from '@opentelemetry/api-logs'
import { OTLPLogExporter as ProtoLogs } from '@opentelemetry/exporter-logs-otlp-proto'
import { OTLPLogExporter as JsonLogs } from '@opentelemetry/exporter-logs-otlp-http'
import { OTLPLogExporter as GrpcLogs } from '@opentelemetry/exporter-logs-otlp-grpc'
import { OTLPMetricExporter as GrpcMetrics } from '@opentelemetry/exporter-metrics-otlp-grpc'
import { OTLPTraceExporter as GrpcTraces } from '@opentelemetry/exporter-trace-otlp-grpc'
import { OTLPMetricExporter as ProtoMetrics } from '@opentelemetry/exporter-metrics-otlp-proto'
import { OTLPMetricExporter as JsonMetrics } from '@opentelemetry/exporter-metrics-otlp-http'
import { OTLPTraceExporter as ProtoTraces } from '@opentelemetry/exporter-trace-otlp-proto'
import { OTLPTraceExporter as JsonTraces } from '@opentelemetry/exporter-trace-otlp-http'
import { resourceFromAttributes } from '@opentelemetry/resources'
import { BatchLogRecordProcessor } from '@opentelemetry/sdk-logs'
import { PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics'
import { NodeSDK } from '@opentelemetry/sdk-node'

const [base, protocol, service] = process.argv.slice(2)
const url = (signal: string) => ({ url: `${base}/v1/${signal}` })
const EXPORTERS = {
  proto: () =>
    [
      new ProtoTraces(url('traces')),
      new ProtoMetrics(url('metrics')),
      new ProtoLogs(url('logs')),
    ] as const,
  json: () =>
    [
      new JsonTraces(url('traces')),
      new JsonMetrics(url('metrics')),
      new JsonLogs(url('logs')),
    ] as const,
  grpc: () =>
    [
      new GrpcTraces({ url: base }),
      new GrpcMetrics({ url: base }),
      new GrpcLogs({ url: base }),
    ] as const,
}
const [spans, points, records] = EXPORTERS[protocol as keyof typeof EXPORTERS]()

const sdk = new NodeSDK({
  resource: resourceFromAttributes({ 'service.name': service, env: 'it' }),
  traceExporter: spans,
  metricReader: new PeriodicExportingMetricReader({
    exporter: points,
    exportIntervalMillis: 60_000,
  }),
  logRecordProcessors: [new BatchLogRecordProcessor({ exporter: records })],
  instrumentations: [],
})
sdk.start()

const tracer = trace.getTracer('it-tracer')
const meter = metrics.getMeter('it-meter')
const logger = logs.getLogger('it-logger')
const orders = meter.createCounter('orders')
const latency = meter.createHistogram('latency', { unit: 'ms' })

let traceId = ''
tracer.startActiveSpan('checkout', (root) => {
  traceId = root.spanContext().traceId
  root.setAttribute('http.request.method', 'POST')
  tracer.startActiveSpan('db', (db) => {
    db.setAttribute('db.system', 'postgresql')
    tracer.startActiveSpan('cache', (cache) => {
      logger.emit({ severityNumber: SeverityNumber.INFO, body: 'cache miss' })
      cache.end()
    })
    db.recordException(new Error('deadlock'))
    db.setStatus({ code: SpanStatusCode.ERROR, message: 'deadlock' })
    logger.emit({ severityNumber: SeverityNumber.ERROR, body: 'db failed' })
    db.end()
  })
  orders.add(3, { route: '/checkout' })
  latency.record(5)
  latency.record(50)
  root.end()
})

await sdk.shutdown()
process.stdout.write(`${traceId}\n`)
