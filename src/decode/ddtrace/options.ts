/**
 * What the ddtrace mapping needs from the `[ddtrace]` config and the request, as plain data so
 * it crosses to a decode worker. The limits bound one request's work beyond its body size.
 */
export interface DdtraceOptions {
  /** `customer_tags`: meta keys (or `reg:` patterns) kept as tags besides the public ones. */
  customerTags: string[]
  /** `[ddtrace.tags]`: set on every span. */
  tags: [string, string][]
  /** Keep the span's remaining meta and metrics as JSON in `message` (not `del_message`). */
  message: boolean
  /** `compatible_otel`: span_id and parent_id as 16 hex digits rather than decimal. */
  compatibleOtel: boolean
  /** `trace_id_64_bit_hex`: every id as 16 hex digits, ignoring `_dd.p.tid`. */
  traceIdHex64: boolean
  /** `trace_128_bit_id`: a trace with `_dd.p.tid` gets its 32-hex-digit 128-bit id. */
  trace128: boolean
  /** `omit_err_status`: traces with a web span of one of these HTTP statuses are left out. */
  omitErrStatus: string[]
  /** Share of traces kept, 0–1 (traces with an error span are always kept). */
  samplingRate: number
  /** Spans kept per trace; the rest are cut and counted (0: no limit). */
  traceMaxSpans: number
  /** Spans one request may hold (`[http_api] max_points_per_request`). */
  maxEntries: number
  /** Bytes of one msgpack or JSON string; longer is refused (413). */
  maxStringBytes: number
  /** `remote_ip` tag, from the request. */
  remoteIp: string
}

export const DEFAULT_DDTRACE_OPTIONS: DdtraceOptions = {
  customerTags: [],
  tags: [],
  message: true,
  compatibleOtel: false,
  traceIdHex64: false,
  trace128: true,
  omitErrStatus: [],
  samplingRate: 1,
  traceMaxSpans: 100_000,
  maxEntries: 250_000,
  maxStringBytes: 1024 * 1024,
  remoteIp: '',
}
