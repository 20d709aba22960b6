/**
 * The shipped cluster deployment (deploy/clickhouse/cluster) read as ClickHouse would read it:
 * `ferry` is 2 shards x 2 replicas with internal replication, `ferry_nodes` the same four
 * nodes one per shard, each node's macros name a different (shard, replica) that matches where
 * remote_servers puts it, the nodes' password is the ferry user's, and the compose file gives
 * each node its own macros file.
 */
import assert from 'node:assert/strict'
import crypto from 'node:crypto'
import fs from 'node:fs'
import { test } from 'node:test'
import { DOMParser, type Element } from '@xmldom/xmldom'
import { parse } from 'yaml'

const dir = new URL('../../../deploy/clickhouse/cluster/', import.meta.url)
const read = (file: string) => fs.readFileSync(new URL(file, dir), 'utf8')
const xml = (file: string) =>
  new DOMParser().parseFromString(read(file), 'text/xml').documentElement as unknown as Element

const kids = (e: Element, name: string): Element[] =>
  Array.from(e.childNodes as unknown as ArrayLike<Element>).filter((n) => n.nodeName === name)
const one = (e: Element, name: string): Element => {
  const found = kids(e, name)
  assert.equal(found.length, 1, `one <${name}> in <${e.nodeName}>`)
  return found[0]
}
const text = (e: Element, name: string) => one(e, name).textContent!.trim()

const cluster = xml('config.d/cluster.xml')
const servers = one(cluster, 'remote_servers')
const hosts = (shard: Element) => kids(shard, 'replica').map((r) => text(r, 'host'))
const NODES = ['ch1', 'ch2', 'ch3', 'ch4']

test('ferry is 2 shards x 2 replicas with internal replication, over four distinct nodes', () => {
  const shards = kids(one(servers, 'ferry'), 'shard')
  assert.deepEqual(shards.map(hosts), [
    ['ch1', 'ch2'],
    ['ch3', 'ch4'],
  ])
  for (const s of shards) assert.equal(text(s, 'internal_replication'), 'true')
})

test('ferry_nodes has the same nodes, each a shard of its own without internal replication', () => {
  const shards = kids(one(servers, 'ferry_nodes'), 'shard')
  assert.deepEqual(
    shards.map(hosts),
    NODES.map((n) => [n]),
  )
  for (const s of shards) assert.equal(kids(s, 'internal_replication').length, 0)
})

test('each node has its own macros, matching its place in remote_servers', () => {
  const shards = kids(one(servers, 'ferry'), 'shard').map(hosts)
  const seen = new Set<string>()
  for (const node of NODES) {
    const cfg = xml(`config.d/node-${node}.xml`)
    const macros = one(cfg, 'macros')
    const [shard, replica] = [text(macros, 'shard'), text(macros, 'replica')]
    assert.ok(!seen.has(`${shard}/${replica}`), `${node}: macros ${shard}/${replica} repeated`)
    seen.add(`${shard}/${replica}`)
    assert.equal(replica, node)
    assert.ok(shards[Number(shard) - 1].includes(node), `${node} is not in shard ${shard}`)
    assert.equal(text(cfg, 'interserver_http_host'), node)
  }
  assert.equal(seen.size, 4)
})

test('ZooKeeper and the distributed DDL queue are configured; nodes log in as ferry', () => {
  assert.equal(text(one(one(cluster, 'zookeeper'), 'node'), 'host'), 'zookeeper')
  assert.equal(text(one(cluster, 'distributed_ddl'), 'path'), '/clickhouse/task_queue/ddl')
  const users = xml('users.xml')
  const ferry = one(one(users, 'users'), 'ferry')
  for (const shard of kids(one(servers, 'ferry'), 'shard'))
    for (const r of kids(shard, 'replica')) {
      assert.equal(text(r, 'user'), 'ferry')
      const sha = crypto.createHash('sha256').update(text(r, 'password')).digest('hex')
      assert.equal(sha, text(ferry, 'password_sha256_hex'))
    }
})

test('the compose file runs ZooKeeper and four nodes, each with its own macros file', () => {
  const compose = parse(read('docker-compose.yml'), { merge: true }) as {
    services: Record<string, { image: string; volumes?: string[] }>
  }
  assert.ok(compose.services.zookeeper.image.startsWith('zookeeper:'))
  for (const node of NODES) {
    const s = compose.services[node]
    assert.match(s.image, /clickhouse-server:/)
    assert.ok(
      s.volumes!.includes(
        `./config.d/node-${node}.xml:/etc/clickhouse-server/config.d/node.xml:ro`,
      ),
    )
    assert.ok(
      s.volumes!.includes('./config.d/cluster.xml:/etc/clickhouse-server/config.d/cluster.xml:ro'),
    )
  }
})
