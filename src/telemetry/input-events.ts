/**
 * Named events of the inputs (collectors): one call logs and moves the metrics together. The
 * `input` label is an input's name from a fixed table (cpu, prom, logging, ...), so it is
 * bounded; several instances of one input share its label.
 */
import { Counter, Gauge, Histogram, type Registry } from 'prom-client'
import type { FerryError } from '../errors.js'
import type { Logger } from './logger.js'
import type { RecentErrors } from './recent-errors.js'

export function createInputMetrics(registry: Registry) {
  return {
    seconds: new Histogram({
      name: 'ferry_input_collect_seconds',
      help: 'Time of one collection run of an input, by input.',
      labelNames: ['input'] as const,
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers: [registry],
    }),
    points: new Counter({
      name: 'ferry_input_points_total',
      help: 'Points an input collected and the disk buffer accepted, by input.',
      labelNames: ['input'] as const,
      registers: [registry],
    }),
    errors: new Counter({
      name: 'ferry_input_errors_total',
      help: 'Failed collection runs or reads of an input, by input and error code.',
      labelNames: ['input', 'code'] as const,
      registers: [registry],
    }),
    lastRun: new Gauge({
      name: 'ferry_input_last_run_timestamp_seconds',
      help: 'Unix time an input last finished a collection run, by input.',
      labelNames: ['input'] as const,
      registers: [registry],
    }),
    truncated: new Counter({
      name: 'ferry_input_lines_truncated_total',
      help: 'Log lines cut at the line length limit, by input.',
      labelNames: ['input'] as const,
      registers: [registry],
    }),
  }
}

export type InputMetrics = ReturnType<typeof createInputMetrics>

export class InputEvents {
  constructor(
    readonly log: Logger,
    private readonly m: InputMetrics,
    private readonly recent: RecentErrors,
  ) {}

  started(input: string, interval: number | null): void {
    this.log.info(
      { event: 'input_started', input, interval_ms: interval },
      `input ${input} started`,
    )
  }

  collected(input: string, seconds: number): void {
    this.m.seconds.observe({ input }, seconds)
    this.m.lastRun.set({ input }, Date.now() / 1000)
  }

  buffered(input: string, points: number): void {
    this.m.points.inc({ input }, points)
  }

  failed(input: string, err: FerryError): void {
    this.m.errors.inc({ input, code: err.code })
    this.recent.add('input', input, err.message)
    this.log.warn({ event: 'input_failed', input, code: `agent.${err.code}` }, err.message)
  }

  /** Something an operator should know that is not a failed run (a binary file skipped). */
  warned(input: string, message: string, detail: Record<string, unknown> = {}): void {
    this.log.warn({ event: 'input_warning', input, ...detail }, message)
  }

  truncated(input: string, lines: number): void {
    this.m.truncated.inc({ input }, lines)
  }

  stopped(input: string): void {
    this.log.info({ event: 'input_stopped', input }, `input ${input} stopped`)
  }
}
