/**
 * ddtrace receiver telemetry: requests accepted (by route version) and spans left out, by
 * reason (the tracer's priority, `omit_err_status`, `sampling_rate`, `trace_max_spans`). Each
 * call logs and counts; the metrics are registered once per registry, so a second app on the
 * same registry (tests) shares them.
 */
import { Counter, type Registry } from 'prom-client'
import type { DdtraceStats } from '../decode/ddtrace/model.js'
import type { Logger } from './logger.js'

function counter<L extends string>(
  registry: Registry,
  name: string,
  help: string,
  label: L,
): Counter<L> {
  const existing = registry.getSingleMetric(name)
  if (existing) return existing as Counter<L>
  return new Counter({ name, help, labelNames: [label], registers: [registry] })
}

const REASONS = ['priority', 'omitted', 'sampled', 'truncated'] as const

export class DdtraceEvents {
  private readonly requests: Counter<'version'>
  private readonly dropped: Counter<'reason'>

  constructor(
    private readonly log: Logger,
    registry: Registry,
  ) {
    this.requests = counter(
      registry,
      'ferry_ddtrace_requests_total',
      'Datadog tracer requests accepted, by route version (v0.3, v0.4, v0.5).',
      'version',
    )
    this.dropped = counter(
      registry,
      'ferry_ddtrace_dropped_spans_total',
      'Spans of accepted ddtrace requests left out, by reason: priority (the tracer rejected the trace), omitted (omit_err_status), sampled (sampling_rate), truncated (trace_max_spans).',
      'reason',
    )
  }

  accepted(version: string, points: number, s: DdtraceStats | undefined): void {
    this.requests.inc({ version })
    if (!s) return
    let any = false
    for (const reason of REASONS)
      if (s[reason] > 0) {
        this.dropped.inc({ reason }, s[reason])
        any = true
      }
    if (any)
      this.log.info(
        { event: 'ddtrace_spans_left_out', version, points, ...s },
        'ddtrace spans left out',
      )
  }
}
