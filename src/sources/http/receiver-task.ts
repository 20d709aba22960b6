/**
 * The part of a decode task that every receiver of a tracer's or SDK's own wire format (OTLP,
 * ddtrace) fills the same way: the body as received, the write's point limit, global host tags
 * and the pipeline. Their times are nanoseconds, so the precision is fixed; they have no echo
 * or strict mode. Each receiver adds its own mapping options.
 */
import type { Category } from '../../shared/category.js'
import type { DecodeTask } from '../../ingest/protocol.js'
import type { HttpDeps } from './deps.js'

export type ReceiverDeps = Pick<HttpDeps, 'config' | 'tags' | 'pipeline'>

export interface ReceivedBody {
  body: Uint8Array
  contentType: string
  /** Content-Encoding; '' for none. */
  encoding: string
}

export function receiverTask(
  deps: ReceiverDeps,
  r: ReceivedBody,
  category: Category,
  maxBodyBytes: number,
): DecodeTask {
  return {
    body: r.body,
    category,
    contentType: r.contentType,
    encoding: r.encoding,
    precision: 'n',
    strict: false,
    echo: null,
    now: BigInt(Date.now()) * 1_000_000n,
    extraTags: deps.tags.forWrite({ ignoreHost: false, election: false }),
    maxBodyBytes,
    maxPoints: deps.config.http_api.max_points_per_request,
    pipeline: deps.pipeline ? { version: deps.pipeline.version(), source: null } : null,
  }
}
