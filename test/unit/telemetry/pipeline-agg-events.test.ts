/**
 * The aggregation buckets' telemetry: every refused value and every lost point is counted in
 * ferry_pipeline_agg_dropped_total by reason and logged; emitted points are counted.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { Registry } from 'prom-client'
import { createLogger } from '../../../src/telemetry/logger.js'
import { PipelineAggEvents } from '../../../src/telemetry/pipeline-agg-events.js'
import { captureLog } from '../../helpers/log-capture.js'

test('aggregation refusals and lost points are counted by reason and logged', async () => {
  const { lines, destination } = captureLog()
  const registry = new Registry()
  const events = new PipelineAggEvents(createLogger('info', { destination }), registry)
  events.refused('buckets', 'metric', 'b1', 0)
  events.refused('buckets', 'metric', 'b1', 1)
  events.refused('series', 'metric', 'b2', 1)
  events.flushed('metric', 'b2', 4)
  events.flushFailed('logging', 'b3', 2, new Error('disk full'))
  await new Promise((r) => setImmediate(r))
  const text = await registry.metrics()
  assert.match(text, /ferry_pipeline_agg_dropped_total\{reason="buckets"\} 1\n/)
  assert.match(text, /ferry_pipeline_agg_dropped_total\{reason="series"\} 1\n/)
  assert.match(text, /ferry_pipeline_agg_dropped_total\{reason="flush_failed"\} 2\n/)
  assert.match(text, /ferry_pipeline_agg_points_total\{category="metric"\} 4\n/)
  assert.deepEqual(
    lines.map((l) => [l.event, l.reason ?? null, l.bucket]),
    [
      ['pipeline_agg_refused', 'buckets', 'b1'],
      ['pipeline_agg_refused', 'buckets', 'b1'],
      ['pipeline_agg_refused', 'series', 'b2'],
      ['pipeline_agg_flush_failed', null, 'b3'],
    ],
  )
  assert.match(String(lines[2].msg), /agg_max_series/)
})
