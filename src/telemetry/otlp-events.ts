/**
 * OTLP receiver telemetry: exports accepted (entries and points by signal), entries rejected
 * (OTLP's partial success), spans left out by sampling or `close_resource`, attributes dropped past
 * `[otlp] max_attributes`, and the spans each path mapped (transcoder or general). Each call logs and counts; the metrics are registered once per
 * registry, so a second app on the same registry (tests) shares them.
 */
import { Counter, type Registry } from 'prom-client'
import type { MapStats } from '../decode/otlp/stats.js'
import type { Logger } from './logger.js'

function counter(registry: Registry, name: string, help: string): Counter<'signal'> {
  const existing = registry.getSingleMetric(name)
  if (existing) return existing as Counter<'signal'>
  return new Counter({ name, help, labelNames: ['signal'] as const, registers: [registry] })
}

export class OtlpEvents {
  private readonly exports: Counter<'signal'>
  private readonly rejected: Counter<'signal'>
  private readonly sampled: Counter<'signal'>
  private readonly closed: Counter<'signal'>
  private readonly dropped: Counter<'signal'>
  private readonly grpcFailures: Counter
  private readonly paths: Counter<'path'>

  constructor(
    private readonly log: Logger,
    registry: Registry,
  ) {
    this.exports = counter(
      registry,
      'ferry_otlp_exports_total',
      'OTLP export requests accepted, by signal.',
    )
    this.rejected = counter(
      registry,
      'ferry_otlp_rejected_total',
      'Spans, data points or log records of accepted OTLP exports that were rejected (reported back as partial success), by signal.',
    )
    this.sampled = counter(
      registry,
      'ferry_otlp_sampled_spans_total',
      'Spans left out by [otlp] sampling_rate (traces with an error span are always kept).',
    )
    this.closed = counter(
      registry,
      'ferry_otlp_closed_spans_total',
      'Spans left out by [otlp.close_resource] (the whole resource group of a matching span).',
    )
    this.dropped = counter(
      registry,
      'ferry_otlp_dropped_attributes_total',
      'Attributes dropped past [otlp] max_attributes, by signal.',
    )
    const paths = 'ferry_otlp_trace_spans_total'
    this.paths =
      (registry.getSingleMetric(paths) as Counter<'path'> | undefined) ??
      new Counter({
        name: paths,
        help: 'Spans of accepted OTLP trace exports by the path that mapped them: the byte-level transcoder, or the general mapping (JSON bodies, options or content the transcoder leaves to it).',
        labelNames: ['path'] as const,
        registers: [registry],
      })
    const failures = 'ferry_otlp_grpc_listen_failures_total'
    this.grpcFailures =
      (registry.getSingleMetric(failures) as Counter | undefined) ??
      new Counter({
        name: failures,
        help: 'Starts at which the OTLP/gRPC receiver could not bind [otlp] grpc_listen.',
        registers: [registry],
      })
  }

  grpcListening(listen: string, port: number): void {
    this.log.info({ event: 'otlp_grpc_started', listen, port }, 'OTLP/gRPC receiver listening')
  }

  grpcUnavailable(listen: string, err: Error): void {
    this.grpcFailures.inc()
    this.log.error(
      { event: 'otlp_grpc_unavailable', listen, err: err.message },
      'OTLP/gRPC receiver cannot listen; the agent runs on without it',
    )
  }

  exported(signal: string, points: number, s: MapStats | undefined): void {
    this.exports.inc({ signal })
    if (!s) return
    if (s.transcodedSpans) this.paths.inc({ path: 'transcoder' }, s.transcodedSpans)
    if (s.generalSpans) this.paths.inc({ path: 'general' }, s.generalSpans)
    if (s.rejected) this.rejected.inc({ signal }, s.rejected)
    if (s.sampled) this.sampled.inc({ signal }, s.sampled)
    if (s.closed) {
      this.closed.inc({ signal }, s.closed)
      this.log.debug(
        { event: 'otlp_closed', signal, spans: s.closed },
        'spans left out by close_resource',
      )
    }
    if (s.attributesDropped) this.dropped.inc({ signal }, s.attributesDropped)
    if (s.rejected || s.attributesDropped)
      this.log.warn(
        {
          event: 'otlp_partial',
          signal,
          points,
          rejected: s.rejected,
          attributes_dropped: s.attributesDropped,
        },
        s.reason || 'OTLP export partly rejected',
      )
  }
}
