/**
 * The answer to an accepted OTLP export: an empty ExportXServiceResponse, or one with
 * `partial_success` when entries were rejected (rejected_spans / rejected_data_points /
 * rejected_log_records = 1, error_message = 2), in the encoding of the request.
 */
import { PbWriter } from '../codec/pb-writer.js'
import type { OtlpEncoding } from './decode.js'
import type { OtlpSignal } from './model.js'

const REJECTED_KEY: Record<OtlpSignal, string> = {
  traces: 'rejectedSpans',
  metrics: 'rejectedDataPoints',
  logs: 'rejectedLogRecords',
}

export interface OtlpAnswer {
  contentType: string
  body: Uint8Array | string
}

export function exportResponse(
  signal: OtlpSignal,
  enc: OtlpEncoding,
  rejected: number,
  message: string,
): OtlpAnswer {
  if (enc === 'json') {
    const partial = { [REJECTED_KEY[signal]]: String(rejected), errorMessage: message }
    return {
      contentType: 'application/json',
      body: JSON.stringify(rejected > 0 ? { partialSuccess: partial } : {}),
    }
  }
  const w = new PbWriter(64)
  if (rejected > 0) {
    const mark = w.begin(1)
    w.tag(1, 0)
    w.int64(rejected)
    w.tag(2, 2)
    w.string(message)
    w.end(mark)
  }
  return { contentType: 'application/x-protobuf', body: w.finish() }
}
