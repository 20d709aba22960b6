/** A fixed dataset for the DQL golden tests: every time is relative to NOW. */
export const NOW = 1_800_000_000_000
const ns = (ms: number) => `${BigInt(ms) * 1_000_000n}`
const MIN = 60_000

export function metricLines(): string {
  const lines: string[] = []
  const hosts = [
    ['h1', 'east'],
    ['h2', 'east'],
    ['h3', 'west'],
  ]
  for (let i = 0; i < 60; i++)
    hosts.forEach(([host, region], h) => {
      const idle = (i % 10) * 10 + h
      lines.push(
        `cpu,host=${host},region=${region} usage_idle=${idle},usage_user=${i}i ${ns(NOW - (i + 1) * MIN)}`,
      )
    })
  return lines.join('\n')
}

export function logLines(): string {
  const rows = [
    ['error', 'GET /api failed', 2],
    ['info', 'GET /about ok', 3],
    ['error', 'POST /login denied', 20],
    ['info', 'get /Assets ok', 5],
    ['warn', 'slow GET /api', 40],
  ] as const
  return rows
    .map(([status, msg, ago]) => `nginx,status=${status} message="${msg}" ${ns(NOW - ago * MIN)}`)
    .join('\n')
}

export function objectLines(): string {
  return [
    `HOST,name=h1 os="old",cpu_cores=2i ${ns(NOW - 30 * MIN)}`,
    `HOST,name=h1 os="linux",cpu_cores=4i ${ns(NOW - 5 * MIN)}`,
    `HOST,name=h2 os="darwin",cpu_cores=8i ${ns(NOW - 6 * MIN)}`,
    `host_processes,name=h1_10,host=h1 process_name="nginx",cmdline="nginx -g daemon off;",pid=10i ${ns(NOW - 5 * MIN)}`,
    `host_processes,name=h1_11,host=h1 process_name="node",cmdline="node server.js",pid=11i ${ns(NOW - 5 * MIN)}`,
    `host_processes,name=h2_20,host=h2 process_name="postgres",cmdline="postgres -D /data",pid=20i ${ns(NOW - 6 * MIN)}`,
  ].join('\n')
}
