/**
 * The pipeline engine's options, and the worker-wide limits they set on the library (caches,
 * window streams, http_request). The limits are per worker: one engine runs in each.
 */
import type { ScriptCaps } from './lib/budget.js'
import { setCacheLimit } from './lib/fn-cache.js'
import { setHttpRequest, type HttpRequestOptions } from './lib/fn-http.js'
import { setUserAgentCacheLimit } from './lib/user-agent.js'
import { setWindowStreamLimit } from './lib/window.js'
import type { SandboxLimits } from './sandbox/sandbox.js'

export interface EngineOptions extends SandboxLimits {
  /** Zone for times without an offset. */
  timezone: string
  /** Per-run caps on created points and output; none when absent (tests, benchmarks). */
  caps?: ScriptCaps
  /** Entries of this worker's cache_set/cache_get store (`[pipeline] cache_max_entries`). */
  cacheMaxEntries?: number
  /** Agent texts user_agent() keeps parsed (`[pipeline] user_agent_cache_entries`). */
  userAgentCacheEntries?: number
  /** Streams point_window holds points of (`[pipeline] max_window_streams`). */
  maxWindowStreams?: number
  /** http_request's switch and bounds (`[pipeline] http_request_*`); absent: off. */
  httpRequest?: HttpRequestOptions
}

/** Sets the library's worker-wide limits; an absent option leaves the library's default. */
export function applyLibraryLimits(opts: EngineOptions): void {
  if (opts.cacheMaxEntries !== undefined) setCacheLimit(opts.cacheMaxEntries)
  if (opts.maxWindowStreams !== undefined) setWindowStreamLimit(opts.maxWindowStreams)
  if (opts.userAgentCacheEntries !== undefined) setUserAgentCacheLimit(opts.userAgentCacheEntries)
  if (opts.httpRequest) setHttpRequest(opts.httpRequest)
}
