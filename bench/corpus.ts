/**
 * A uniform corpus for tests and the workspace benchmark: line protocol bodies of `points`
 * points, about 320 bytes a point, 8 tags and 10 mixed fields (int, uint, float, bool), no
 * string field and no escape. The write benchmarks use the host corpus (`corpus-hosts.ts`),
 * shaped like real Telegraf data. Beside it, nginx access lines as logging points, for the
 * pipeline's shipped nginx script.
 */
const HOSTS = ['web-01', 'web-02', 'db-01', 'cache-01', 'edge-07']

export function makeLine(i: number, timeNs: bigint): string {
  const h = HOSTS[i % HOSTS.length]
  const tags =
    `host=${h},region=eu-west-1,az=eu-west-1${'abc'[i % 3]},service=checkout,env=prod,` +
    `version=2.14.${i % 10},cluster=k8s-main-production,pod=checkout-7d9f8c6b5-${(i % 97).toString(16)}x`
  const fields =
    `requests=${1000 + (i % 500)}i,errors=${i % 7}i,latency_p50=${(i % 100) / 7},latency_p99=${(i % 1000) / 3},` +
    `bytes_in=${20000 + i}i,bytes_out=${40000 + i}i,cpu=${(i % 100) / 100},healthy=${i % 2 === 0},` +
    `conns=${i % 300}u,queue_depth=${(i % 50) * 1.5}`
  return `http_server,${tags} ${fields} ${timeNs + BigInt(i)}`
}

export function makeBody(points: number, seed = 0): string {
  const now = BigInt(Date.now()) * 1_000_000n
  const lines: string[] = []
  for (let i = 0; i < points; i++) lines.push(makeLine(seed + i, now))
  return lines.join('\n')
}

const AGENTS = [
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 11_1_0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/89.0.4389.72 Safari/537.36',
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:109.0) Gecko/20100101 Firefox/115.0',
  'curl/7.68.0',
]

/** `lines` nginx access log lines, each the `message` of an `nginx` logging point. */
export function makeNginxBody(lines: number): Buffer {
  const out: string[] = []
  for (let i = 0; i < lines; i++) {
    const ip = `10.0.${(i >> 8) & 255}.${i & 255}`
    const status = [200, 200, 200, 304, 404, 500][i % 6]
    const log = `${ip} - - [24/Mar/2021:13:${String(i % 60).padStart(2, '0')}:19 +0800] "GET /api/v1/items/${i}?page=${i % 7} HTTP/1.1" ${status} ${100 + i} "-" "${AGENTS[i % 3]}"`
    out.push(`nginx,service=web message="${log.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`)
  }
  return Buffer.from(out.join('\n'))
}

/** JSON application logs (measurement `jsonapp`): a level, a service, a SQL statement, a user. */
export function makeJsonLogBody(lines: number): Buffer {
  const out: string[] = []
  for (let i = 0; i < lines; i++) {
    const log = JSON.stringify({
      ts: `2021-03-24T13:${String(i % 60).padStart(2, '0')}:19.123Z`,
      level: ['info', 'warn', 'error', 'ok'][i % 4],
      svc: { name: ['orders', 'billing', 'search'][i % 3], ver: '1.2.3' },
      db: { statement: `SELECT * FROM orders WHERE id = ${i} AND owner = 'user${i % 97}'` },
      user: { id: i % 1000, plan: i % 2 ? 'pro' : 'free' },
      msg: `handled request ${i} in ${(i % 50) + 3} ms`,
    })
    out.push(`jsonapp,service=api message="${log.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`)
  }
  return Buffer.from(out.join('\n'))
}
