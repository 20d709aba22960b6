/**
 * What the mapping needs from the `[otlp]` config and the request, as plain data so it crosses
 * to a decode worker. Limits here bound the work of one request beyond the body size.
 */
import type { CloseResourceRules } from './close-resource.js'

export interface OtlpOptions {
  /** `customer_tags`: span attribute keys (or `reg:` patterns) kept as point keys. */
  customerTags: string[]
  customerTagsAll: boolean
  /** `[otlp.tags]`: set on every span and log point. */
  tags: [string, string][]
  /** Log bodies are cut into points of at most this many characters (`log_max`). */
  logMaxChars: number
  splitServiceName: boolean
  /** Keep the span's remaining attributes, events and links as JSON in `message`. */
  message: boolean
  /** Share of traces without an error span kept, 0–1 (every error trace is kept). */
  samplingRate: number
  /** `close_resource`: service → span name patterns whose resource groups are left out. */
  closeResource: CloseResourceRules
  /** Attributes read per span, event, link, data point, log record or resource; more are dropped. */
  maxAttributes: number
  /** Spans, data points or log records one request may hold (`max_points_per_request`). */
  maxEntries: number
  /** `remote_ip` and `dk_fingerprint` tags, from the request and the agent. */
  remoteIp: string
  fingerprint: string
}

export const DEFAULT_OTLP_OPTIONS: OtlpOptions = {
  customerTags: [],
  customerTagsAll: false,
  tags: [],
  logMaxChars: 500 * 1024,
  splitServiceName: false,
  message: true,
  samplingRate: 1,
  closeResource: [],
  maxAttributes: 128,
  maxEntries: 250_000,
  remoteIp: '',
  fingerprint: '',
}
