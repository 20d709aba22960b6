/**
 * Debug input records: base64 items decoded in the requested character set, then either
 * split into log records (text) or parsed as a write body (line protocol by default).
 */
import { FerryError } from '../../errors.js'
import { parseBody } from '../../decode/parse-body.js'
import { toPl, type PlPoint } from '../lib/pl-point.js'
import { Kind } from '../../shared/point.js'

const MAX_DATA_BYTES = 32 * 1024 * 1024

export function decodeText(b64: string, encode: string): string {
  if (!/^[A-Za-z0-9+/=\s_-]*$/.test(b64)) throw new FerryError('invalidData', 'data is not base64')
  const bytes = Buffer.from(b64, 'base64')
  if (bytes.length > MAX_DATA_BYTES)
    throw new FerryError('invalidData', 'a data item is over 32MiB')
  const enc = (encode || 'utf8').toLowerCase().replace(/-/g, '')
  const label = enc === 'gbk' || enc === 'gb18030' ? enc : 'utf-8'
  return new TextDecoder(label).decode(bytes)
}

/** The multiline start pattern (a linear-time expression for a request's own pattern). */
export interface LineStart {
  test(line: string): boolean
}

/** Lines matching `start` begin a record; others continue the previous one. */
export function splitRecords(text: string, start: LineStart): string[] {
  const out: string[] = []
  for (const line of text.replace(/\r?\n$/, '').split(/\r?\n/)) {
    if (out.length === 0 || start.test(line)) out.push(line)
    else out[out.length - 1] += '\n' + line
  }
  return out
}

/** Built as a shared Point first, so a failed run restores the record with its text. */
function textPoint(name: string, message: string, now: bigint): PlPoint {
  const fields = [{ key: 'message', kind: Kind.STRING, value: message }]
  return toPl({ name, tags: [], fields, time: now, warns: null })
}

export function recordsOf(
  texts: string[],
  o: { category: string; dataType: string; name: string; now: bigint; start: LineStart },
): PlPoint[] {
  const plain = o.dataType.includes('text/plain') || (o.dataType === '' && o.category === 'logging')
  const out: PlPoint[] = []
  for (const text of texts) {
    if (plain) {
      for (const r of splitRecords(text, o.start)) out.push(textPoint(o.name, r, o.now))
      continue
    }
    try {
      for (const p of parseBody(o.dataType, Buffer.from(text)).points) {
        p.time ??= o.now
        out.push(toPl(p))
      }
    } catch (e) {
      if (o.category !== 'logging') throw e
      out.push(textPoint(o.name, text, o.now))
    }
  }
  return out
}
