/**
 * A Decoder that runs the real decode code on the calling thread: for the CLI tools, the
 * single-thread benchmark figure, and unit tests that drive the HTTP app without workers.
 */
import { fromPayload } from '../errors.js'
import type { PipelineHost } from '../pipeline/worker-host.js'
import type { RumStage } from '../rum/stage.js'
import { processTask } from './process.js'
import type { DecodeOk, DecodeTask, Decoder } from './protocol.js'

export class InlineDecoder implements Decoder {
  constructor(
    private readonly pipeline: PipelineHost | null = null,
    private readonly rum: RumStage | null = null,
  ) {}

  async decode(task: DecodeTask): Promise<DecodeOk> {
    const r = await processTask(task, this.pipeline, this.rum)
    if (!r.ok) throw fromPayload(r.error)
    return r
  }
}
