/**
 * Requests to an upstream reached directly (no proxy) on Node's own HTTP client. Not undici
 * there: undici's HTTP parser is WebAssembly, and V8 recompiles it with TurboFan on first use,
 * about 25-30 MB for a fraction of a second, which set the agent's peak RSS (the clock check at
 * start, or the first upload under load). Node's parser is native. Proxies stay on undici
 * (network.ts), which speaks forward form and CONNECT tunnels.
 *
 * Invariants:
 * - It answers and fails where `fetch` would: rejects on a network error or an abort; follows a
 *   3xx with a Location up to 20 times (303, and 301/302 after a POST, go on as a GET without
 *   body or body headers; 307/308 repeat the method and body), over http and https only.
 * - Each client has its own keep-alive pools (plain and TLS); `close` ends their sockets.
 * - An answer's body is read once; `text` keeps its first `TEXT_LIMIT` bytes and drains the rest.
 */
import http from 'node:http'
import https from 'node:https'

/** The TLS settings of an upstream (network.ts reads them from the `[dataway]` keys). */
export interface ClientTls {
  ca?: string[]
  cert?: Buffer
  key?: Buffer
  rejectUnauthorized: boolean
}

/** An upstream's answer: its status, one header, and its text (the body is read). */
export interface PostAnswer {
  status: number
  header(name: string): string | null
  /** The body as text (read once); '' when it cannot be read. */
  text(): Promise<string>
}

export interface RequestSpec {
  method: 'GET' | 'POST'
  headers: Record<string, string>
  body?: Uint8Array
  signal: AbortSignal
}

/** `fetch`'s default: redirects followed up to 20 times. */
export const MAX_REDIRECTIONS = 20
const REDIRECTS = new Set([301, 302, 303, 307, 308])
/** Headers that describe a body, left out when a redirect drops the body (as `fetch` does). */
const BODY_HEADERS = new Set([
  'content-type',
  'content-encoding',
  'content-language',
  'content-length',
])
/** Upstream answers are short; an error text is cut to 2 KiB by its reader anyway. */
const TEXT_LIMIT = 64 * 1024

function bodyless(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(headers).filter(([k]) => !BODY_HEADERS.has(k.toLowerCase())),
  )
}

function readText(res: http.IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = []
    let kept = 0
    res.on('data', (c: Buffer) => {
      if (kept >= TEXT_LIMIT) return
      chunks.push(c)
      kept += c.length
    })
    res.once('end', () => resolve(Buffer.concat(chunks).subarray(0, TEXT_LIMIT).toString('utf8')))
    // After `end` these change nothing; before it, the body was cut short.
    res.once('error', () => resolve(''))
    res.once('close', () => resolve(''))
  })
}

/** One header of an answer (either client's), repeated values joined; null when absent. */
export function headerOf(
  headers: Record<string, string | string[] | undefined>,
  name: string,
): string | null {
  const v = headers[name.toLowerCase()]
  return v === undefined ? null : Array.isArray(v) ? v.join(', ') : v
}

function answer(res: http.IncomingMessage): PostAnswer {
  let text: Promise<string> | null = null
  return {
    status: res.statusCode ?? 0,
    header: (name) => headerOf(res.headers, name),
    text: () => (text ??= readText(res)),
  }
}

/**
 * An idle pooled connection is closed after 4 s, undici's default: an upstream that closes idle
 * connections sooner than a client reuses them fails the next upload on a dead socket.
 */
const IDLE_MS = 4_000

export class NativeClient {
  private readonly plain = new http.Agent({ keepAlive: true, timeout: IDLE_MS })
  private readonly secure: https.Agent

  constructor(tls: ClientTls = { rejectUnauthorized: true }) {
    this.secure = new https.Agent({
      keepAlive: true,
      timeout: IDLE_MS,
      ca: tls.ca,
      cert: tls.cert,
      key: tls.key,
      rejectUnauthorized: tls.rejectUnauthorized,
    })
  }

  async request(url: string, spec: RequestSpec): Promise<PostAnswer> {
    let target = new URL(url)
    let { method, headers, body } = spec
    for (let hop = 0; ; hop++) {
      const res = await this.once(target, method, headers, body, spec.signal)
      const location = res.headers.location
      if (!REDIRECTS.has(res.statusCode ?? 0) || !location) return answer(res)
      res.resume()
      if (hop >= MAX_REDIRECTIONS) throw new Error('redirect count exceeded')
      target = new URL(location, target)
      const status = res.statusCode
      if (status === 303 || ((status === 301 || status === 302) && method === 'POST')) {
        method = 'GET'
        body = undefined
        headers = bodyless(headers)
      }
    }
  }

  private once(
    url: URL,
    method: string,
    headers: Record<string, string>,
    body: Uint8Array | undefined,
    signal: AbortSignal,
  ): Promise<http.IncomingMessage> {
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      return Promise.reject(new Error(`unsupported protocol ${url.protocol}`))
    const tls = url.protocol === 'https:'
    return new Promise((resolve, reject) => {
      const req = (tls ? https : http).request(url, {
        method,
        headers: body ? { ...headers, 'Content-Length': String(body.byteLength) } : headers,
        agent: tls ? this.secure : this.plain,
        signal,
      })
      req.once('response', resolve)
      req.once('error', reject)
      req.end(body)
    })
  }

  /** Ends every pooled connection; a request after it opens new ones. */
  close(): void {
    this.plain.destroy()
    this.secure.destroy()
  }
}
