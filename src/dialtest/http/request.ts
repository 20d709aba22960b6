/** What an HTTP task sends: headers (auth, cookies, user agent), body and TLS options. */
import { buildBody } from './body.js'
import type { HopRequest } from './exchange.js'
import type { HttpTask } from './types.js'
import { durationMs } from '../duration.js'

export const DEFAULT_TIMEOUT_MS = 60_000
/** Response bytes read for the checks; the rest is not downloaded. */
export const MAX_RESPONSE_BYTES = 1024 * 1024

export function hopRequest(t: HttpTask, userAgent: string): HopRequest {
  const adv = t.advance_options ?? {}
  const ro = adv.request_options ?? {}
  const headers: Record<string, string> = { 'User-Agent': userAgent, ...ro.headers }
  if (ro.cookies) headers.Cookie = ro.cookies
  if (ro.auth?.username)
    headers.Authorization = `Basic ${Buffer.from(`${ro.auth.username}:${ro.auth.password ?? ''}`).toString('base64')}`
  const body = buildBody(adv.request_body)
  if (body.contentType && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type'))
    headers['Content-Type'] = body.contentType
  const cert = adv.certificate ?? {}
  const proxy = adv.proxy?.url
    ? { url: new URL(adv.proxy.url), headers: adv.proxy.headers ?? {} }
    : undefined
  return {
    url: new URL(t.url ?? ''),
    method: (t.method || 'GET').toUpperCase(),
    headers,
    body: body.bytes,
    tls: {
      rejectUnauthorized: cert.ignore_server_certificate_error !== true,
      ...(cert.certificate ? { cert: cert.certificate } : {}),
      ...(cert.private_key ? { key: cert.private_key } : {}),
      ...(cert.ca ? { ca: cert.ca } : {}),
    },
    proxy,
    timeoutMs: durationMs(adv.request_timeout, DEFAULT_TIMEOUT_MS),
    maxBody: MAX_RESPONSE_BYTES,
  }
}
