/**
 * One http_request call, run on the helper thread: the host is resolved and every address it
 * resolves to is checked (internal ranges refused unless allowed), redirects are not
 * followed (a redirect could lead inside), the body is read up to the cap, and the call is
 * aborted at its timeout. The outcome always lands in the reply buffer.
 */
import dns from 'node:dns'
import net from 'node:net'
import { deadline } from '../../shared/deadline.js'
import { isInternalAddress } from '../../shared/internal-addr.js'
import { writeReply, type HttpCall } from './reply.js'

async function checkHost(url: URL, allowInternal: boolean): Promise<void> {
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new Error(`unsupported scheme ${url.protocol}`)
  if (allowInternal) return
  const host = url.hostname.replace(/^\[|\]$/g, '')
  const addrs = net.isIP(host)
    ? [host]
    : (await dns.promises.lookup(host, { all: true })).map((a) => a.address)
  if (addrs.some(isInternalAddress)) throw new Error(`internal address refused: ${host}`)
}

async function readBody(res: Response, max: number): Promise<Uint8Array> {
  const chunks: Uint8Array[] = []
  let size = 0
  for await (const chunk of res.body ?? []) {
    size += (chunk as Uint8Array).byteLength
    if (size > max) throw new Error(`response larger than ${max} bytes`)
    chunks.push(chunk as Uint8Array)
  }
  return Buffer.concat(chunks)
}

export async function runCall(c: HttpCall): Promise<void> {
  const d = deadline(c.timeoutMs)
  try {
    const url = new URL(c.url)
    await checkHost(url, c.allowInternal)
    const withBody = c.method !== 'GET' && c.method !== 'HEAD'
    const res = await fetch(url, {
      method: c.method,
      headers: c.headers,
      body: withBody && c.body ? c.body : undefined,
      redirect: 'manual',
      signal: d.signal,
    })
    writeReply(c.reply, res.status, await readBody(res, c.maxBytes))
  } catch (err) {
    writeReply(c.reply, -1, Buffer.from(err instanceof Error ? err.message : String(err)))
  } finally {
    d.clear()
  }
}
