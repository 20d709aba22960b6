/**
 * Which node a ClickHouse client calls, against two scripted HTTP nodes (the far side): by
 * default calls go round the URLs; a sticky client (cluster mode) stays on the node it reached
 * and moves to the next only when that one cannot be reached, then stays there.
 */
import assert from 'node:assert/strict'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { after, before, test } from 'node:test'
import { ClickHouseClient } from '../../../src/workspace/store/clickhouse/client.js'

const hits: number[] = [0, 0]
const servers = [0, 1].map((i) =>
  http.createServer((req, res) => {
    req.resume()
    hits[i]++
    res.end('{"meta":[{"name":"n","type":"UInt8"}],"data":[[1]]}')
  }),
)
const urls: string[] = []

before(async () => {
  for (const s of servers) {
    await new Promise<void>((r) => s.listen(0, '127.0.0.1', r))
    urls.push(`http://127.0.0.1:${(s.address() as AddressInfo).port}`)
  }
})
after(() => servers.forEach((s) => s.listening && s.close()))

const client = (sticky: boolean) =>
  new ClickHouseClient({
    urls,
    user: 'default',
    password: '',
    tls: { ca: '', cert: '', key: '', insecureSkipVerify: false },
    connectTimeoutMs: 500,
    maxConnections: 2,
    sticky,
  })

async function calls(c: ClickHouseClient, n: number): Promise<number[]> {
  hits.fill(0)
  for (let i = 0; i < n; i++) await c.query('SELECT 1', { timeoutMs: 2_000 })
  return [...hits]
}

test('by default calls go round the nodes', async () => {
  const c = client(false)
  assert.deepEqual(await calls(c, 4), [2, 2])
  await c.close()
})

test('a sticky client stays on its node, and on the next once its node is gone', async () => {
  const c = client(true)
  assert.deepEqual(await calls(c, 4), [4, 0])
  servers[0].closeAllConnections()
  await new Promise((r) => servers[0].close(r))
  assert.deepEqual(await calls(c, 3), [0, 3])
  await c.close()
})
