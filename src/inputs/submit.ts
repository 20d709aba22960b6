/**
 * Collected points take the write path: they are encoded as PBPoints and decoded by the same
 * task and the same `accept` as a `POST /v1/write` (checks, global tags, pipeline selection,
 * the disk buffer), with `input=<name>`. Nothing about a collected point is special after this.
 */
import type { WriteBuffer } from '../buffer/buffer.js'
import { PbWriter } from '../decode/codec/pb-writer.js'
import { encodePoint } from '../decode/codec/protobuf.js'
import { accept } from '../ingest/accept.js'
import type { IoSettings } from '../ingest/io.js'
import type { AggOp } from '../pipeline/agg/ops.js'
import { plainTask, type Decoder } from '../ingest/protocol.js'
import type { TapHub } from '../ingest/tap.js'
import type { Category } from '../shared/category.js'
import type { Point } from '../shared/point.js'
import type { GlobalTags } from '../tags/global-tags.js'
import type { Events } from '../telemetry/events.js'

export interface SubmitDeps {
  decoder: Decoder
  buffer: WriteBuffer
  tags: GlobalTags
  /** The pipeline scripts' version; null when the pipeline is off. */
  pipelineVersion: (() => number) | null
  events: Events
  maxPoints: number
  /** Collected points are tapped as written ones are. */
  tap?: TapHub | null
  /** `[io]` filters and correction, and the upstream's clock. */
  io?: IoSettings
  /** Takes the scripts' agg_create/agg_metric operations (the pipeline's buckets). */
  aggregate?: (ops: AggOp[]) => void
}

function encode(points: Point[]): Uint8Array {
  const w = new PbWriter(4096)
  for (const p of points) encodePoint(w, p)
  return w.finish()
}

export class Submitter {
  constructor(private readonly d: SubmitDeps) {}

  /** Resolves with the points stored once they are in the disk buffer. */
  async submit(
    input: string,
    category: Category,
    points: Point[],
    source: string | null = null,
  ): Promise<number> {
    let stored = 0
    for (let i = 0; i < points.length; i += this.d.maxPoints)
      stored += await this.submitChunk(
        input,
        category,
        points.slice(i, i + this.d.maxPoints),
        source,
      )
    return stored
  }

  private async submitChunk(
    input: string,
    category: Category,
    points: Point[],
    source: string | null,
  ): Promise<number> {
    if (points.length === 0) return 0
    const body = encode(points)
    const version = this.d.pipelineVersion
    const task = plainTask(body, category, {
      contentType: 'application/x-protobuf',
      precision: 'n',
      extraTags: this.d.tags.forWrite({ ignoreHost: false, election: false }),
      maxBodyBytes: Math.max(body.length, 1024),
      maxPoints: this.d.maxPoints,
      pipeline: version ? { version: version(), source } : null,
    })
    const out = await accept(this.d, task, { input })
    this.d.events.writeAccepted({
      category,
      input,
      points: out.points,
      warnings: out.warnings,
      dry: false,
    })
    return out.points
  }
}
