/**
 * Telemetry of the pipeline's aggregation buckets (agg_create/agg_metric): metric points
 * emitted, and every value or point lost, by reason, each loss also logged (warnings are
 * rate-limited per kind by the logger).
 */
import { Counter, type Registry } from 'prom-client'
import type { AggRefusal, AggReport } from '../pipeline/agg/buckets.js'
import type { Category } from '../shared/category.js'
import type { Logger } from './logger.js'

export class PipelineAggEvents implements AggReport {
  private readonly points: Counter
  private readonly dropped: Counter

  constructor(
    private readonly log: Logger,
    registry: Registry,
  ) {
    this.points = new Counter({
      name: 'ferry_pipeline_agg_points_total',
      help: 'Metric points emitted by agg_create buckets.',
      labelNames: ['category'],
      registers: [registry],
    })
    this.dropped = new Counter({
      name: 'ferry_pipeline_agg_dropped_total',
      help: 'Values refused by a bucket limit (reason buckets|series), or emitted points the buffer refused (flush_failed).',
      labelNames: ['reason'],
      registers: [registry],
    })
  }

  refused(reason: AggRefusal, category: Category, bucket: string, values: number): void {
    if (values > 0) this.dropped.inc({ reason }, values)
    const limit = reason === 'buckets' ? 'agg_max_buckets' : 'agg_max_series'
    this.log.warn(
      { event: 'pipeline_agg_refused', reason, category, bucket, values },
      `aggregation ${reason === 'buckets' ? 'bucket' : 'series'} refused: [pipeline] ${limit} reached`,
    )
  }

  flushed(category: Category, _bucket: string, points: number): void {
    this.points.inc({ category }, points)
  }

  flushFailed(category: Category, bucket: string, points: number, error: unknown): void {
    this.dropped.inc({ reason: 'flush_failed' }, points)
    this.log.warn(
      { event: 'pipeline_agg_flush_failed', category, bucket, points, error: String(error) },
      'aggregation points could not be stored; they are lost',
    )
  }
}
