/**
 * How Ferry reaches an upstream: one undici dispatcher (connection pool) per upstream, built
 * from `[dataway]` `http_proxy`, `use_env_proxy` and the TLS keys. Every request to an upstream
 * (uploads, forwarded queries, ntp) goes through this module, so they all take the same proxy
 * and trust the same CAs.
 *
 * Invariants:
 * - `http_proxy` wins over the environment; HTTPS_PROXY / HTTP_PROXY / NO_PROXY count only
 *   when `use_env_proxy` is on (the reference agent ignores them).
 * - Through a proxy, an http upstream is sent in forward form (absolute URL to the proxy) and
 *   an https one through a CONNECT tunnel, TLS end to end with the upstream.
 * - A CA file adds to the system's CAs; `tls_insecure` turns certificate checks off for the
 *   upstream and for an https proxy.
 * - Uploads and the clock check (`upstreamPost`, `upstreamGet`) to an upstream reached
 *   directly, or without a dispatcher (the embedded workspace, on loopback), go through Node's
 *   own client (`native-client.ts`: no WebAssembly parser to compile, about 25-30 MB of peak);
 *   through a proxy, undici's `request` with redirects followed as `fetch` follows them (the
 *   WHATWG `fetch` costs the HTTP thread about 1.4-3 ms more CPU per upload of a 100 KB body).
 * - Forwarded queries and RUM calls use `fetch` (`upstreamFetch`), through the dispatcher.
 */
import fs from 'node:fs'
import tls from 'node:tls'
import {
  Agent,
  EnvHttpProxyAgent,
  ProxyAgent,
  fetch as undiciFetch,
  interceptors,
  request,
  type Dispatcher,
} from 'undici'
import { FerryError } from '../../errors.js'
import {
  MAX_REDIRECTIONS,
  NativeClient,
  headerOf,
  type PostAnswer,
  type RequestSpec,
} from './native-client.js'
import type { Upstream } from './upstream.js'

export type { PostAnswer } from './native-client.js'

export interface NetworkOptions {
  proxy: string
  envProxy: boolean
  insecure: boolean
  caFile: string
  certFile: string
  keyFile: string
}

export interface TlsMaterial {
  ca?: string[]
  cert?: Buffer
  key?: Buffer
  rejectUnauthorized: boolean
}

function read(file: string, what: string): Buffer {
  try {
    return fs.readFileSync(file)
  } catch (e) {
    throw new FerryError('configInvalid', `dataway.${what}: ${(e as Error).message}`)
  }
}

/** Reads the TLS files once, at start; a missing file stops the start with its key's name. */
export function tlsMaterial(o: NetworkOptions): TlsMaterial {
  const out: TlsMaterial = { rejectUnauthorized: !o.insecure }
  if (o.caFile) out.ca = [...tls.rootCertificates, read(o.caFile, 'tls_ca_file').toString('utf8')]
  if (o.certFile) out.cert = read(o.certFile, 'tls_cert_file')
  if (o.keyFile) out.key = read(o.keyFile, 'tls_key_file')
  return out
}

export function createDispatcher(o: NetworkOptions, t: TlsMaterial = tlsMaterial(o)): Dispatcher {
  if (o.proxy)
    return new ProxyAgent({
      uri: o.proxy,
      requestTls: t,
      proxyTls: { ca: t.ca, rejectUnauthorized: t.rejectUnauthorized },
      connect: t,
      proxyTunnel: false,
    })
  if (o.envProxy)
    // Its options reach the proxy agents it makes, so http goes in forward form here too.
    return new EnvHttpProxyAgent({
      connect: t,
      requestTls: t,
      proxyTls: t,
      proxyTunnel: false,
    } as EnvHttpProxyAgent.Options)
  return new Agent({ connect: t })
}

/** Node's client for an upstream reached directly; none through a proxy (undici's then). */
export function createNative(
  o: NetworkOptions,
  t: TlsMaterial = tlsMaterial(o),
): NativeClient | undefined {
  return o.proxy || o.envProxy ? undefined : new NativeClient(t)
}

/** An upstream with its own connection pools. */
export function withDispatcher(up: Upstream, d: Dispatcher, native?: NativeClient): Upstream {
  return native ? { ...up, dispatcher: d, native } : { ...up, dispatcher: d }
}

/** `fetch` to an upstream, through its dispatcher when it has one. */
export async function upstreamFetch(
  up: Upstream,
  url: string,
  init: RequestInit,
): Promise<Response> {
  if (!up.dispatcher) return fetch(url, init)
  const res = await undiciFetch(url, {
    ...(init as Parameters<typeof undiciFetch>[1]),
    dispatcher: up.dispatcher,
  })
  return res as unknown as Response
}

const posting = new WeakMap<Dispatcher, Dispatcher>()
/** For upstreams without a dispatcher of their own (plain http on loopback), made once. */
let loopback: NativeClient | null = null

/** The dispatcher with redirects followed, made once per dispatcher. */
function postDispatcher(base: Dispatcher): Dispatcher {
  let d = posting.get(base)
  if (!d) {
    d = base.compose(interceptors.redirect({ maxRedirections: MAX_REDIRECTIONS }))
    posting.set(base, d)
  }
  return d
}

export interface PostInit {
  headers: Record<string, string>
  body: Uint8Array
  signal: AbortSignal
}

/** A request through the upstream's own client: Node's where it has one, else its proxy's. */
async function upstreamRequest(up: Upstream, url: string, spec: RequestSpec): Promise<PostAnswer> {
  if (up.native || !up.dispatcher)
    return (up.native ?? (loopback ??= new NativeClient())).request(url, spec)
  const res = await request(url, { ...spec, dispatcher: postDispatcher(up.dispatcher) })
  return {
    status: res.statusCode,
    header: (name) => headerOf(res.headers, name),
    text: () => res.body.text().catch(() => ''),
  }
}

/** A POST to an upstream; rejects where `fetch` would (network, abort). */
export function upstreamPost(up: Upstream, url: string, init: PostInit): Promise<PostAnswer> {
  return upstreamRequest(up, url, { method: 'POST', ...init })
}

/** A GET to an upstream (the clock check); rejects where `fetch` would (network, abort). */
export function upstreamGet(
  up: Upstream,
  url: string,
  init: { headers: Record<string, string>; signal: AbortSignal },
): Promise<PostAnswer> {
  return upstreamRequest(up, url, { method: 'GET', ...init })
}
