/**
 * Pipeline telemetry: one call per event writes the log line and moves the metrics. Script
 * names label the series; they are bounded by the files in the script folder (a write can
 * only select a script that exists).
 */
import { Counter, type Registry } from 'prom-client'
import type { ScriptStat } from '../pipeline/apply.js'
import type { PlError } from '../pipeline/scripts/compile.js'
import type { Logger } from './logger.js'

export function createPipelineMetrics(registry: Registry) {
  const c = (name: string, help: string, labelNames: string[]) =>
    new Counter({ name, help, labelNames, registers: [registry] })
  return {
    points: c('ferry_pipeline_points_total', 'Points a pipeline script ran on.', [
      'category',
      'script',
    ]),
    dropped: c(
      'ferry_pipeline_dropped_points_total',
      'Points a script dropped (drop()); not uploaded.',
      ['category', 'script'],
    ),
    errors: c(
      'ferry_pipeline_errors_total',
      'Points whose script run failed (they went on unchanged).',
      ['category', 'script'],
    ),
    created: c('ferry_pipeline_created_points_total', 'Points added by create_point().', [
      'category',
      'script',
    ]),
    seconds: c('ferry_pipeline_run_seconds_total', 'Time spent running scripts.', [
      'category',
      'script',
    ]),
    limited: c(
      'ferry_pipeline_limited_points_total',
      'Points whose run hit a per-run cap (max_created_points, max_output_bytes); they went on unchanged.',
      ['category', 'script'],
    ),
    referPulls: c(
      'ferry_pipeline_refer_table_pulls_total',
      'Pulls of [pipeline] refer_table_url, by result (a failed pull keeps the previous tables).',
      ['result'],
    ),
    compileErrors: c(
      'ferry_pipeline_compile_errors_total',
      'Script versions that failed to compile (the previous version kept running).',
      ['file'],
    ),
  }
}

export class PipelineEvents {
  private readonly m: ReturnType<typeof createPipelineMetrics>

  constructor(
    private readonly log: Logger,
    registry: Registry,
  ) {
    this.m = createPipelineMetrics(registry)
  }

  ran(category: string, s: ScriptStat): void {
    const labels = { category, script: s.script }
    this.m.points.inc(labels, s.points)
    this.m.seconds.inc(labels, s.seconds)
    if (s.created) this.m.created.inc(labels, s.created)
    if (s.dropped) {
      this.m.dropped.inc(labels, s.dropped)
      this.log.info(
        { event: 'pipeline_dropped', ...labels, points: s.dropped },
        'points dropped by a pipeline script',
      )
    }
    if (s.limited) {
      this.m.limited.inc(labels, s.limited)
      this.log.warn(
        { event: 'pipeline_limited', ...labels, points: s.limited, error: s.firstError },
        'pipeline script hit a per-run cap; its points went on unchanged',
      )
    }
    if (s.errors) {
      this.m.errors.inc(labels, s.errors)
      this.log.warn(
        { event: 'pipeline_failed', ...labels, points: s.errors, error: s.firstError },
        'pipeline script failed; its points went on unchanged',
      )
    }
  }

  compileFailed(file: string, errors: PlError[]): void {
    this.m.compileErrors.inc({ file })
    const at = errors[0]?.pos_chain[0]
    this.log.error(
      {
        event: 'pipeline_compile_failed',
        file,
        line: at?.ln,
        column: at?.col,
        error: errors[0]?.error,
      },
      'pipeline script failed to compile; the previous version (if any) keeps running',
    )
  }

  referLoaded(tables: number, rows: number, refused: string[]): void {
    this.m.referPulls.inc({ result: 'ok' })
    this.log.info({ event: 'refer_tables_loaded', tables, rows }, 'refer tables loaded')
    // A refused table is damaged input: counted (pull result) and logged with its reason.
    if (refused.length) {
      this.m.referPulls.inc({ result: 'table_refused' }, refused.length)
      this.log.warn({ event: 'refer_table_refused', refused }, 'refer table(s) refused')
    }
  }

  referFailed(error: string): void {
    this.m.referPulls.inc({ result: 'failed' })
    this.log.warn(
      { event: 'refer_tables_failed', error },
      'refer tables pull failed; the previous tables stay',
    )
  }

  loaded(version: number, scripts: number): void {
    this.log.info({ event: 'pipeline_loaded', version, scripts }, 'pipeline scripts loaded')
  }
}
