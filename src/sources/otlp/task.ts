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
import { receiverTask, type ReceivedBody } from '../http/receiver-task.js'

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

/** `encoding` is '' for gRPC, which decompresses before the handler. */
export interface OtlpRequest extends ReceivedBody {
  signal: OtlpSignal
  remoteIp: string
}

export function otlpTask(deps: OtlpDeps, r: OtlpRequest): DecodeTask {
  return {
    ...receiverTask(deps, r, OTLP_CATEGORY[r.signal], deps.config.http_api.max_body_size),
    otlp: { signal: r.signal, options: options(deps, r.remoteIp) },
    // Its decode time is charged to the peer (`[decode] client_share`).
    ...(r.remoteIp ? { client: r.remoteIp } : {}),
  }
}
