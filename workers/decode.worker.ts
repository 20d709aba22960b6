/**
 * Piscina worker: decodes one write body per task. Imports only decode code (never the HTTP
 * source). The body arrives transferred; the encoded payload returns by structured clone (one
 * memcpy of about 1 KB a point, cheaper than the bookkeeping of a transfer at this size).
 */
import { processTask } from '../src/decode/process.js'
import type { DecodeResult, DecodeTask } from '../src/decode/protocol.js'

export default function decode(task: DecodeTask): DecodeResult {
  return processTask(task)
}
