/**
 * One HTTP(S) GET of an exposition, bounded: a body over `maxBytes` is refused as soon as it
 * passes the limit (a misconfigured target cannot make the agent buffer gigabytes), and the
 * request is aborted with the run's signal or its own timeout, whichever comes first.
 */
import fs from 'node:fs'
import http from 'node:http'
import https from 'node:https'
import { FerryError } from '../../errors.js'
import { deadline } from '../../shared/deadline.js'

export interface ScrapeOptions {
  timeout: number
  maxBytes: number
  headers: Record<string, string>
  tls: { ca?: Buffer[]; cert?: Buffer; key?: Buffer; insecure: boolean; serverName?: string }
}

export interface Body {
  text: string
  contentType: string
}

/** Reads the reference's TLS keys (files, or base64 contents) into what `https` takes. */
export function tlsFiles(c: {
  ca: string[]
  cert: string
  key: string
  caB64: string[]
  certB64: string
  keyB64: string
}): { ca?: Buffer[]; cert?: Buffer; key?: Buffer } {
  const file = (p: string) => (p ? fs.readFileSync(p) : undefined)
  const b64 = (s: string) => (s ? Buffer.from(s, 'base64') : undefined)
  const ca = [
    ...c.ca.map((p) => fs.readFileSync(p)),
    ...c.caB64.map((s) => Buffer.from(s, 'base64')),
  ]
  return {
    ...(ca.length ? { ca } : {}),
    ...((file(c.cert) ?? b64(c.certB64)) ? { cert: file(c.cert) ?? b64(c.certB64) } : {}),
    ...((file(c.key) ?? b64(c.keyB64)) ? { key: file(c.key) ?? b64(c.keyB64) } : {}),
  }
}

function requestOptions(url: URL, o: ScrapeOptions, signal: AbortSignal): https.RequestOptions {
  const accept =
    'application/openmetrics-text;version=1.0.0;q=0.5,text/plain;version=0.0.4;q=0.4,*/*;q=0.1'
  return {
    method: 'GET',
    headers: { accept, ...o.headers },
    signal,
    ...(url.protocol === 'https:'
      ? {
          ...(o.tls.ca ? { ca: o.tls.ca } : {}),
          ...(o.tls.cert ? { cert: o.tls.cert } : {}),
          ...(o.tls.key ? { key: o.tls.key } : {}),
          ...(o.tls.serverName ? { servername: o.tls.serverName } : {}),
          rejectUnauthorized: !o.tls.insecure,
        }
      : {}),
  }
}

/** One scrape, aborted at `o.timeout` or when `signal` aborts. */
export async function scrape(url: string, o: ScrapeOptions, signal: AbortSignal): Promise<Body> {
  const limit = deadline(o.timeout, signal)
  try {
    return await get(url, o, limit.signal)
  } finally {
    limit.clear()
  }
}

function get(url: string, o: ScrapeOptions, signal: AbortSignal): Promise<Body> {
  const u = new URL(url)
  const request = u.protocol === 'https:' ? https.get : http.get
  return new Promise<Body>((resolve, reject) => {
    const fail = (e: unknown) =>
      reject(
        e instanceof FerryError
          ? e
          : new FerryError('collectFailed', `${url}: ${(e as Error).message}`, { cause: e }),
      )
    const req = request(u, requestOptions(u, o, signal), (res) => {
      if (res.statusCode !== 200) {
        res.resume()
        return fail(new FerryError('collectFailed', `${url}: HTTP ${res.statusCode}`))
      }
      const chunks: Buffer[] = []
      let size = 0
      res.on('data', (c: Buffer) => {
        size += c.length
        if (size > o.maxBytes) {
          req.destroy()
          fail(
            new FerryError('bodyTooLarge', `${url}: body over max_body_size (${o.maxBytes} bytes)`),
          )
        } else chunks.push(c)
      })
      res.on('end', () =>
        resolve({
          text: Buffer.concat(chunks).toString('utf8'),
          contentType: String(res.headers['content-type'] ?? ''),
        }),
      )
      res.on('error', fail)
    })
    req.on('error', fail)
  })
}
