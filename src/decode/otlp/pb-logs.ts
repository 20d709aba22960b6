/** ExportLogsServiceRequest on the protobuf wire (logs.proto) → the model. */
import type { PbReader } from '../codec/pb-reader.js'
import { anyValue, eachField, want, keyValue, readGroups } from './pb-common.js'
import { emptyLog, type LogRecord, type ResourceGroup } from './model.js'

export function readLog(r: PbReader): LogRecord {
  const l = emptyLog()
  eachField(r, (f, w) => {
    if (f === 1) l.time = want(r, w, 1).fixed64()
    else if (f === 11) l.observedTime = want(r, w, 1).fixed64()
    else if (f === 2) l.severityNumber = want(r, w, 0).uvarint()
    else if (f === 3) l.severityText = want(r, w, 2).string()
    else if (f === 5) l.body = anyValue(want(r, w, 2).sub())
    else if (f === 6) l.attributes.push(keyValue(want(r, w, 2).sub()))
    else if (f === 8) l.flags = want(r, w, 5).fixed32()
    else if (f === 9) l.traceId = want(r, w, 2).bytes().slice()
    else if (f === 10) l.spanId = want(r, w, 2).bytes().slice()
    else return false
    return true
  })
  return l
}

export function decodeLogsPb(body: Uint8Array): ResourceGroup<LogRecord>[] {
  return readGroups(body, readLog)
}
