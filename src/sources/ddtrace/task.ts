/**
 * One Datadog tracer request as a decode task: the tracing category, the write's limits (the
 * body at most `[ddtrace] max_trace_body_mb` below `[http_api] max_body_size`), global host
 * tags, the pipeline (tracing scripts are chosen by each span's service), and the `[ddtrace]`
 * mapping options. Span times are nanoseconds, so the precision is fixed.
 */
import type { DecodeTask } from '../../ingest/protocol.js'
import type { DdtraceVersion } from '../../decode/ddtrace/model.js'
import type { DdtraceOptions } from '../../decode/ddtrace/options.js'
import type { HttpDeps } from '../http/deps.js'
import { receiverTask, type ReceivedBody } from '../http/receiver-task.js'

export type DdtraceDeps = Pick<HttpDeps, 'config' | 'tags' | 'pipeline'>

/** Bytes a request body may have. */
export function ddtraceBodyLimit(deps: DdtraceDeps): number {
  const own = deps.config.ddtrace.max_trace_body_mb
  const http = deps.config.http_api.max_body_size
  return own > 0 ? Math.min(http, own * 1024 * 1024) : http
}

function options(deps: DdtraceDeps, remoteIp: string): DdtraceOptions {
  const o = deps.config.ddtrace
  return {
    customerTags: o.customer_tags,
    tags: Object.entries(o.tags),
    message: !o.del_message,
    compatibleOtel: o.compatible_otel,
    traceIdHex64: o.trace_id_64_bit_hex,
    trace128: o.trace_128_bit_id,
    omitErrStatus: o.omit_err_status,
    samplingRate: o.sampling_rate,
    traceMaxSpans: o.trace_max_spans,
    maxEntries: deps.config.http_api.max_points_per_request,
    maxStringBytes: o.max_string_bytes,
    remoteIp,
  }
}

export interface DdtraceRequest extends ReceivedBody {
  version: DdtraceVersion
  remoteIp: string
}

export function ddtraceTask(deps: DdtraceDeps, r: DdtraceRequest): DecodeTask {
  return {
    ...receiverTask(deps, r, 'tracing', ddtraceBodyLimit(deps)),
    ddtrace: { version: r.version, options: options(deps, r.remoteIp) },
    // Its decode time is charged to the peer (`[decode] client_share`), as OTLP's is.
    ...(r.remoteIp ? { client: r.remoteIp } : {}),
  }
}
