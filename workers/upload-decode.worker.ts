/**
 * Piscina worker of the workspace service: decodes one upload body into column batches, whose
 * typed arrays are transferred back (moved, not copied); only the small text dictionaries and
 * column names are cloned.
 */
import { move, transferableSymbol, valueSymbol } from 'piscina'
import { transferList } from '../src/workspace/ingest/columns.js'
import { decodeUpload, type UploadResult, type UploadTask } from '../src/workspace/ingest/decode.js'
import { fingerprintReady } from '../src/workspace/ingest/fingerprint.js'

export default async function decode(task: UploadTask): Promise<unknown> {
  await fingerprintReady
  const result: UploadResult = decodeUpload(task)
  if (!result.ok) return result
  const buffers = transferList(result.tables)
  return move({
    get [transferableSymbol]() {
      return buffers
    },
    get [valueSymbol]() {
      return result
    },
  } as never)
}
