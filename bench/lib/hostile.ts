/**
 * The hostile client of `bench:hostile`: from its own address (127.0.0.2) it sends, in turn and
 * without pause, the worst cases issue 14 found. Each case reports the statuses it got.
 */
import http from 'node:http'
import zlib from 'node:zlib'

const FROM = '127.0.0.2'
const MIB = 1024 * 1024

interface Sent {
  status: number
  ms: number
}

function send(url: URL, path: string, body: Buffer, headers: Record<string, string> = {}) {
  return new Promise<Sent>((resolve) => {
    const started = performance.now()
    const req = http.request(
      {
        method: 'POST',
        hostname: url.hostname,
        port: url.port,
        path,
        localAddress: FROM,
        headers: { ...headers, 'Content-Length': body.length },
      },
      (res) => {
        res.resume()
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, ms: performance.now() - started }),
        )
      },
    )
    req.on('error', () => resolve({ status: -1, ms: performance.now() - started }))
    req.end(body)
  })
}

/** A 166-byte zstd frame declaring a 1.9 GiB window (40 RLE blocks of 128 KiB). */
function zstdBomb(): Buffer {
  const out = [0x28, 0xb5, 0x2f, 0xfd, 0x00, 0xa7]
  for (let i = 0; i < 40; i++) {
    const h = ((128 * 1024) << 3) | 2 | (i === 39 ? 1 : 0)
    out.push(h & 255, (h >> 8) & 255, (h >> 16) & 255, 0x61)
  }
  return Buffer.from(out)
}

/** 9 million `a x=1` lines, gzip'd as 90 concatenated members (about 80 KB). */
function gzipBomb(): Buffer {
  const member = zlib.gzipSync(Buffer.alloc(600_000, 'a x=1\n'), { level: 9 })
  return Buffer.concat(Array.from({ length: 90 }, () => member))
}

const randomIp = () => Array.from({ length: 4 }, () => Math.floor(Math.random() * 256)).join('.')

/** 2000 one-point writes, 250 at a time, each naming another client in X-Forwarded-For. */
async function flood(u: URL, path: string, body: Buffer): Promise<Sent[]> {
  const out: Sent[] = []
  for (let i = 0; i < 8; i++)
    out.push(
      ...(await Promise.all(
        Array.from({ length: 250 }, () => send(u, path, body, { 'X-Forwarded-For': randomIp() })),
      )),
    )
  return out
}

export interface Case {
  name: string
  run(url: URL): Promise<Sent[]>
}

export function hostileCases(): Case[] {
  const zstd = zstdBomb()
  const gzip = gzipBomb()
  const big = Buffer.alloc(64 * MIB, 'a x=1\n')
  const tiny = Buffer.from('flood,n=1 f=1i')
  const xff = Array.from({ length: 1400 }, (_, i) => `10.0.${i >> 8}.${i & 255}`).join(', ')
  const w = '/v1/write/logging'
  return [
    {
      name: 'zstd window bomb (166 B)',
      run: async (u) => [await send(u, w, zstd, { 'Content-Encoding': 'zstd' })],
    },
    {
      name: 'gzip point bomb (9M points)',
      run: async (u) => [await send(u, w, gzip, { 'Content-Encoding': 'gzip' })],
    },
    { name: '64 MiB body', run: async (u) => [await send(u, w, big)] },
    { name: 'rotating X-Forwarded-For flood (2000)', run: (u) => flood(u, w, tiny) },
    {
      name: 'huge headers (14 KB X-Forwarded-For, 15 KB cookie)',
      run: async (u) => [
        await send(u, w, tiny, { 'X-Forwarded-For': xff }),
        await send(u, w, tiny, { Cookie: 'c'.repeat(15_000) }),
      ],
    },
  ]
}
