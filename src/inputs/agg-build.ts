/**
 * The pipeline's aggregation buckets, built like an input: the metric points a bucket emits
 * take the collected points' path (`Submitter`: checks, global tags, the disk buffer) with
 * `input=pl_agg`, the reference's feed name. They run no script, so a script's own output
 * never feeds its buckets again.
 */
import type { LoadedConfig } from '../config/load.js'
import { AggBuckets, type AggOptions } from '../pipeline/agg/buckets.js'
import { PipelineAggEvents } from '../telemetry/pipeline-agg-events.js'
import { Submitter, type SubmitDeps } from './submit.js'

export function createAggBuckets(
  loaded: LoadedConfig,
  opts: AggOptions,
  deps: Omit<SubmitDeps, 'maxPoints' | 'pipelineVersion' | 'aggregate'>,
): AggBuckets {
  const maxPoints = loaded.config.http_api.max_points_per_request
  const submitter = new Submitter({ ...deps, maxPoints, pipelineVersion: null })
  const events = new PipelineAggEvents(deps.events.log, deps.events.metrics.registry)
  return new AggBuckets(
    opts,
    (category, points) => submitter.submit('pl_agg', category, points),
    events,
  )
}
