/** `POST /v1/pipeline/debug` (spec 4.11) as it crosses into a decode worker and back. */
import type { ErrorPayload } from '../../errors.js'
import type { PlError } from '../scripts/compile.js'

export interface DebugTask {
  kind: 'pipeline-debug'
  /** category -> script name -> base64 source. */
  pipeline: Record<string, Record<string, string>>
  scriptName: string
  category: string
  /** Base64 records. */
  data: string[]
  dataType: string
  encode: string
  benchmark: boolean
  /** Receive time (ns) for records without one. */
  now: bigint
  /** Extension: a line matching this starts a new record (default: a non-blank first char). */
  multilineMatch: string | null
}

export interface PointResult {
  name: string
  tags: Record<string, string>
  fields: Record<string, unknown>
  time: number
  time_ns: number
  dropped: boolean
}

export interface PlResult {
  point: PointResult
  dropped: boolean
  run_error: PlError | null
  create_point?: PointResult[]
}

export interface DebugContent {
  cost: string
  benchmark: string
  pl_errors: PlError[]
  plresults: PlResult[]
}

export type DebugResult = { ok: true; content: DebugContent } | { ok: false; error: ErrorPayload }

/** What the pipeline offers the HTTP source. */
export interface PipelineDeps {
  /** Version of the script folder the decode workers should follow. */
  version(): number
  /** Runs a `/v1/pipeline/debug` request in a decode worker. */
  debug(task: DebugTask): Promise<DebugResult>
}
