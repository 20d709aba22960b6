/**
 * One OTLP export request as a decode task, the same for OTLP/HTTP and OTLP/gRPC: the category
 * of its signal, the write's limits, global host tags, the pipeline, and the `[otlp]` mapping
 * options. Times in OTLP are nanoseconds, so the precision is fixed.
 */
import type { Category } from '../../shared/category.js'
import type { DecodeTask } from '../../ingest/protocol.js'
import type { OtlpSignal } from '../../decode/otlp/model.js'
import type { OtlpOptions } from '../../decode/otlp/options.js'
import type { HttpDeps } from '../http/deps.js'

export const OTLP_CATEGORY: Record<OtlpSignal, Category> = {
  traces: 'tracing',
  metrics: 'metric',
  logs: 'logging',
}

export type OtlpDeps = Pick<HttpDeps, 'config' | 'tags' | 'pipeline' | 'identity'>

function options(deps: OtlpDeps, remoteIp: string): OtlpOptions {
  const o = deps.config.otlp
  return {
    customerTags: o.customer_tags,
    customerTagsAll: o.customer_tags_all,
    tags: Object.entries(o.tags),
    logMaxChars: o.log_max * 1024,
    splitServiceName: o.split_service_name,
    message: !o.del_message,
    samplingRate: o.sampling_rate,
    closeResource: Object.entries(o.close_resource as Record<string, string[]>),
    maxAttributes: o.max_attributes,
    maxEntries: deps.config.http_api.max_points_per_request,
    remoteIp,
    fingerprint: `${deps.identity.host}_${deps.identity.version}`,
  }
}

export interface OtlpRequest {
  signal: OtlpSignal
  body: Uint8Array
  contentType: string
  /** Content-Encoding; '' for none (gRPC decompresses before the handler). */
  encoding: string
  remoteIp: string
}

export function otlpTask(deps: OtlpDeps, r: OtlpRequest): DecodeTask {
  return {
    body: r.body,
    category: OTLP_CATEGORY[r.signal],
    contentType: r.contentType,
    encoding: r.encoding,
    precision: 'n',
    strict: false,
    echo: null,
    now: BigInt(Date.now()) * 1_000_000n,
    extraTags: deps.tags.forWrite({ ignoreHost: false, election: false }),
    maxBodyBytes: deps.config.http_api.max_body_size,
    maxPoints: deps.config.http_api.max_points_per_request,
    pipeline: deps.pipeline ? { version: deps.pipeline.version(), source: null } : null,
    otlp: { signal: r.signal, options: options(deps, r.remoteIp) },
    // Its decode time is charged to the peer (`[decode] client_share`).
    ...(r.remoteIp ? { client: r.remoteIp } : {}),
  }
}
