/** `[pipeline]` config -> worker and watcher settings. */
import path from 'node:path'
import type { LoadedConfig } from '../config/load.js'
import { localZone } from '../shared/time-zone.js'
import type { PipelineWorkerConfig } from './worker-host.js'

/** `dir`, else `pipeline/` beside the config path (whether or not the file was read). */
export function pipelineDir(loaded: Pick<LoadedConfig, 'config' | 'path'>): string {
  return loaded.config.pipeline.dir || path.join(path.dirname(loaded.path), 'pipeline')
}

export function pipelineSettings(loaded: LoadedConfig) {
  const c = loaded.config.pipeline
  if (!c.enable) return null
  const limits = {
    memoryBytes: c.memory_limit,
    stackBytes: c.max_stack_size,
    batchTimeoutMs: c.batch_timeout,
    timezone: c.timezone || localZone(),
  }
  const worker: PipelineWorkerConfig = {
    ...limits,
    dir: pipelineDir(loaded),
    maxBatch: c.max_batch,
    defaults: c.default_pipeline,
    caps: { maxCreatedPoints: c.max_created_points, maxOutputBytes: c.max_output_bytes },
    cacheMaxEntries: c.cache_max_entries,
    userAgentCacheEntries: c.user_agent_cache_entries,
    maxWindowStreams: c.max_window_streams,
    httpRequest: {
      enable: c.http_request_enable,
      allowInternal: c.http_request_allow_internal,
      timeoutMs: c.http_request_timeout,
      maxBytes: c.http_request_max_bytes,
      maxCalls: c.http_request_max_calls,
    },
  }
  return {
    worker,
    watcher: { ...limits, reloadMs: c.reload_interval },
    debugConcurrency: c.debug_concurrency,
    agg: { maxBuckets: c.agg_max_buckets, maxSeries: c.agg_max_series, minIntervalMs: 1000 },
    refer: c.refer_table_url
      ? {
          url: c.refer_table_url,
          intervalMs: c.refer_table_pull_interval,
          maxBytes: c.refer_table_max_bytes,
          timeoutMs: c.refer_table_timeout,
        }
      : null,
  }
}
