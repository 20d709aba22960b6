/**
 * The typed message protocol between the HTTP thread and the decode workers. Bodies travel as
 * transferred buffers in both directions, never copied.
 */
import type { ErrorPayload } from '../errors.js'
import type { Category } from '../shared/category.js'
import type { EchoFormat } from '../decode/codec/echo.js'
import type { Precision } from '../decode/precision.js'
import type { ScriptStat } from '../pipeline/apply.js'
import type { AggOp } from '../pipeline/agg/ops.js'
import type { PipelineTaskInfo } from '../pipeline/worker-host.js'
import type { DebugTask } from '../pipeline/debug/types.js'
import type { IoTask } from './io.js'
import type { CdnStat } from '../rum/cdn/marker.js'
import type { SharedGeo } from '../rum/geo/ipdb.js'
import type { SharedRefer } from '../pipeline/lib/fn-refer.js'
import type { RumTask, SourceMapStat } from './rum.js'
import type { OtlpSignal } from '../decode/otlp/model.js'
import type { OtlpOptions } from '../decode/otlp/options.js'
import type { MapStats } from '../decode/otlp/stats.js'
import type { DdtraceStats, DdtraceVersion } from '../decode/ddtrace/model.js'
import type { DdtraceOptions } from '../decode/ddtrace/options.js'

export interface DecodeTask {
  body: Uint8Array
  category: Category
  contentType: string
  /** `encoding` query parameter, else Content-Encoding; '' for none. */
  encoding: string
  precision: Precision | null
  strict: boolean
  echo: EchoFormat | null
  /** Receive time in ns, for points without a timestamp. */
  now: bigint
  /** Global tags added to every point that lacks the key (after echo). */
  extraTags: [string, string][]
  maxBodyBytes: number
  /** Most points the body may hold (`[http_api] max_points_per_request`). */
  maxPoints: number
  /** Pipeline version and script parameter; null when the pipeline is off for this write. */
  pipeline: PipelineTaskInfo | null
  /** RUM checks and tags; absent for other categories and when `[rum] enable = false`. */
  rum?: RumTask
  /** IO filters and time correction (io.ts); absent when the category has neither. */
  io?: IoTask
  /** The shared IP database, for scripts calling `geoip()`; absent when none does. */
  geo?: SharedGeo
  /** The refer tables, for query_refer_table; absent when none are configured or pulled. */
  refer?: SharedRefer
  /**
   * Who sent it (the rate limit's client address), charged for its decode time and refused
   * past its share (`decode-shares.ts`); absent for the agent's own inputs.
   */
  client?: string
  /** An OTLP export request (the body is one, mapped to points); absent for writes. */
  otlp?: { signal: OtlpSignal; options: OtlpOptions }
  /** A Datadog tracer's request (the body is one, mapped to points); absent for writes. */
  ddtrace?: { version: DdtraceVersion; options: DdtraceOptions }
}

export interface DecodeOk {
  ok: true
  points: number
  /** Concatenated PBPoints entries: a valid PBPoints body. */
  payload: Uint8Array
  /** zlib's CRC-32 of `payload`, from a decode worker (absent when decoded on this thread). */
  payloadCrc?: number
  /**
   * Free bytes before `payload` in a buffer made for it alone (shared/payload-room.ts), where
   * the disk buffer writes its record header; absent or 0: none.
   */
  payloadRoom?: number
  echo: string | null
  /** Corrections applied, by warning type. */
  warnings: Record<string, number>
  bodyBytes: number
  /** One entry per script that ran. */
  pipeline: ScriptStat[]
  /** agg_create/agg_metric operations of the scripts, for the main thread's buckets. */
  agg?: AggOp[]
  /** One entry per RUM error point given to the source map resolver. */
  sourcemaps?: SourceMapStat[]
  /** Points an IO filter dropped, and points re-timed (only when `io` was set). */
  filtered?: number
  retimed?: number
  /** CDN marking of the write's resource points; absent when off. */
  cdn?: CdnStat
  /** What the OTLP mapping rejected, sampled out and dropped (only for OTLP tasks). */
  otlp?: MapStats
  /** Spans the ddtrace mapping left out, by reason (only for ddtrace tasks). */
  ddtrace?: DdtraceStats
}

export interface DecodeFailed {
  ok: false
  error: ErrorPayload
}

export type DecodeResult = DecodeOk | DecodeFailed

/** What a decode worker accepts: a write body, or a pipeline debug request. */
export type WorkerTask = DecodeTask | (DebugTask & { geo?: SharedGeo; refer?: SharedRefer })

/**
 * A task with every write option at its default (no compression, precision guessed, no echo,
 * not strict, no global tags, no pipeline), received now; `o` overrides any of them.
 */
export function plainTask(
  body: Uint8Array,
  category: Category,
  o: Partial<DecodeTask> = {},
): DecodeTask {
  return {
    body,
    category,
    contentType: '',
    encoding: '',
    precision: null,
    strict: false,
    echo: null,
    now: BigInt(Date.now()) * 1_000_000n,
    extraTags: [],
    maxBodyBytes: 64 * 1024 * 1024,
    maxPoints: 250_000,
    pipeline: null,
    ...o,
  }
}

/** The seam the HTTP source depends on; the Piscina pool implements it. */
export interface Decoder {
  decode(task: DecodeTask): Promise<DecodeOk>
}
