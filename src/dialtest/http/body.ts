/** The request body of an HTTP task by its `body_type` (text, JSON, XML, form, multipart). */
import crypto from 'node:crypto'
import type { HttpBody } from './types.js'

export const BODY_TYPES = new Set([
  'text/plain',
  'application/json',
  'text/xml',
  'application/x-www-form-urlencoded',
  'text/html',
  'multipart/form-data',
  '',
  'None',
])

export interface BuiltBody {
  bytes: Buffer | null
  contentType: string | null
}

function multipart(b: HttpBody): BuiltBody {
  const boundary = crypto.randomBytes(16).toString('hex')
  const parts: Buffer[] = []
  const head = (disposition: string, type?: string) =>
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; ${disposition}\r\n` +
        (type ? `Content-Type: ${type}\r\n` : '') +
        '\r\n',
    )
  for (const [k, v] of Object.entries(b.form ?? {}))
    parts.push(head(`name=${JSON.stringify(k)}`), Buffer.from(`${v}\r\n`))
  for (const f of b.files ?? []) {
    if (f.encoding !== undefined && f.encoding !== 'base64')
      throw new Error('only base64 encoding is supported for file encoding')
    const file = f.original_file_name ?? f.name ?? 'file'
    parts.push(
      head(
        `name=${JSON.stringify(f.name ?? 'file')}; filename=${JSON.stringify(file)}`,
        f.type || 'application/octet-stream',
      ),
      Buffer.from(f.content ?? '', 'base64'),
      Buffer.from('\r\n'),
    )
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`))
  return { bytes: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` }
}

export function buildBody(b: HttpBody | undefined): BuiltBody {
  const type = b?.body_type ?? ''
  if (!b || type === 'None') return { bytes: null, contentType: null }
  if (type === 'multipart/form-data') return multipart(b)
  if (type === 'application/x-www-form-urlencoded') {
    const form = b.form ?? {}
    const text = Object.keys(form).length ? new URLSearchParams(form).toString() : (b.body ?? '')
    return { bytes: Buffer.from(text), contentType: type }
  }
  const bytes = b.body ? Buffer.from(b.body) : null
  return { bytes, contentType: type || null }
}
