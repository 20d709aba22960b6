/**
 * Piscina worker of the workspace service: decodes one upload body into column batches (which
 * return by structured clone: value arrays of primitives, cheap to copy).
 */
import { decodeUpload, type UploadResult, type UploadTask } from '../src/workspace/ingest/decode.js'

export default function decode(task: UploadTask): UploadResult {
  return decodeUpload(task)
}
