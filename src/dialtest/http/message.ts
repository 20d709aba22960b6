/**
 * The `message` field of an HTTP result: request body and headers, the status, and on failure
 * the response headers and body. Keys are sorted as Go marshals a map; the body is cut at
 * 10 KiB and the whole message at 100 KiB, so one answer stays small whatever the target sends.
 */
import type { Exchange } from './exchange.js'
import type { HttpBody } from './types.js'

export const MAX_BODY_IN_MESSAGE = 10 * 1024
export const MAX_MESSAGE = 100 * 1024

/** Go's canonical header key: `content-type` -> `Content-Type`. */
export function canonical(name: string): string {
  return name
    .toLowerCase()
    .replace(/(^|-)([a-z])/g, (_m, d: string, c: string) => d + c.toUpperCase())
}

/** Response headers as Go's http.Header: canonical keys, every value in order. */
export function headerMap(x: Exchange): Record<string, string[]> {
  const out: Record<string, string[]> = {}
  for (let i = 0; i + 1 < x.rawHeaders.length; i += 2)
    (out[canonical(x.rawHeaders[i])] ??= []).push(x.rawHeaders[i + 1])
  return out
}

function sorted(o: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.keys(o)
      .sort()
      .map((k) => [k, o[k]]),
  )
}

export function cutBody(body: string): string {
  return body.length > MAX_BODY_IN_MESSAGE ? `${body.slice(0, MAX_BODY_IN_MESSAGE)}...` : body
}

export function httpMessage(o: {
  body: HttpBody | undefined
  headers: Record<string, string>
  status: string
  failReason?: string
  response: Exchange | null
  notSave: boolean
}): string {
  const m: Record<string, unknown> = {
    request_body: sorted({
      body_type: o.body?.body_type ?? '',
      body: o.body?.body ?? '',
      form: o.body?.form ?? null,
      files: (o.body?.files ?? []).map((f) => f.original_file_name ?? f.name ?? ''),
    }),
    request_header: sorted(o.headers),
    status: o.status,
  }
  if (o.failReason !== undefined) m.fail_reason = o.failReason
  if (o.failReason && !o.notSave && o.response) {
    m.response_header = headerMap(o.response)
    m.response_body = cutBody(o.response.body.toString('utf8'))
  }
  const text = JSON.stringify(sorted(m))
  return text.length > MAX_MESSAGE ? text.slice(0, MAX_MESSAGE) : text
}
