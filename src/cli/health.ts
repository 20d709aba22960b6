/**
 * `ferry health`: asks the agent named by the config for `/v1/ping`, for Docker HEALTHCHECK
 * and Kubernetes probes; an agent that answers but reports `degraded` fails the check too. HTTPS certificates are not verified: the probe only asks whether this
 * host's own agent answers, and its certificate is usually issued for another name.
 */
import http from 'node:http'
import https from 'node:https'
import { FerryError } from '../errors.js'

export function ping(url: string, timeoutMs: number): Promise<string> {
  const target = `${url}/v1/ping`
  const get = target.startsWith('https:') ? https.get : http.get
  return new Promise((resolve, reject) => {
    const fail = (why: string) =>
      reject(new FerryError('unhealthy', `unhealthy: ${target}: ${why}`))
    const req = get(target, { timeout: timeoutMs, rejectUnauthorized: false }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('error', (e) => fail(e.message))
      res.on('end', () => {
        const body = Buffer.concat(chunks).toString()
        if (res.statusCode === 200) resolve(body)
        else fail(`answered ${res.statusCode}`)
      })
    })
    req.on('timeout', () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)))
    req.on('error', (e: NodeJS.ErrnoException) =>
      fail(e.code === 'ECONNREFUSED' ? 'connection refused' : e.message),
    )
  })
}

/** The reasons an answer of `/v1/ping` reports `degraded`; null when it does not. */
export function degradedReasons(body: string): string[] | null {
  try {
    const h = (
      JSON.parse(body) as { content?: { health?: { status?: string; reasons?: string[] } } }
    ).content?.health
    return h?.status === 'degraded' ? (h.reasons ?? []) : null
  } catch {
    return null
  }
}
