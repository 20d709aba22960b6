/**
 * A ClickHouse cluster on loopback for the cluster tests: one ZooKeeper (zookeeper.ts) and one
 * shard of `replicas` clickhouse-server nodes, each a child process with its own directory and
 * free ports, configured as deploy/clickhouse/cluster is (`remote_servers` with the cluster and
 * its `_nodes` twin, macros per node, ZooKeeper, the distributed DDL queue). A node can be
 * killed (SIGKILL) and launched again on its data.
 */
import type { ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { killed, launchClickHouse, nodeConfig, USERS } from './clickhouse.js'
import { freePorts } from './ports.js'
import { startZooKeeper, type ZooKeeper } from './zookeeper.js'

export const CLUSTER = 'ferry'

export interface ClusterNode {
  url: string
  /** SIGKILL, the data kept. */
  kill(): Promise<void>
  /** Launched again on its data and ports; resolves when it answers /ping. */
  restart(): Promise<void>
}

export interface ClickHouseCluster {
  nodes: ClusterNode[]
  stop(): Promise<void>
}

interface Ports {
  http: number
  tcp: number
  inter: number
}

function clusterXml(ports: Ports[], zk: number, shard: string, replica: string): string {
  const replicaXml = (p: Ports) => `<replica><host>127.0.0.1</host><port>${p.tcp}</port></replica>`
  const one = ports.map(replicaXml).join('')
  const each = ports.map((p) => `<shard>${replicaXml(p)}</shard>`).join('')
  return `  <interserver_http_host>127.0.0.1</interserver_http_host>
  <remote_servers>
    <${CLUSTER}><shard><internal_replication>true</internal_replication>${one}</shard></${CLUSTER}>
    <${CLUSTER}_nodes>${each}</${CLUSTER}_nodes>
  </remote_servers>
  <macros><shard>${shard}</shard><replica>${replica}</replica></macros>
  <zookeeper><node><host>127.0.0.1</host><port>${zk}</port></node></zookeeper>
  <distributed_ddl><path>/clickhouse/task_queue/ddl</path></distributed_ddl>
`
}

export async function startCluster(replicas = 2): Promise<ClickHouseCluster> {
  const zk: ZooKeeper = await startZooKeeper()
  // All ports at once, so no two of the nodes' listeners are given the same one.
  const free = await freePorts(3 * replicas)
  const ports: Ports[] = Array.from({ length: replicas }, (_, i) => ({
    http: free[3 * i],
    tcp: free[3 * i + 1],
    inter: free[3 * i + 2],
  }))
  const dirs = ports.map(() => fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-chc-')))
  const procs: (ChildProcess | null)[] = ports.map(() => null)
  const stop = async () => {
    await Promise.all(procs.map((p) => p && killed(p)))
    await zk.stop()
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true })
  }
  const nodes = ports.map((p, i): ClusterNode => {
    const url = `http://127.0.0.1:${p.http}`
    const extra = clusterXml(ports, zk.port, '01', `r${i + 1}`)
    fs.writeFileSync(
      path.join(dirs[i], 'config.xml'),
      nodeConfig(dirs[i], p.http, p.tcp, p.inter, extra),
    )
    fs.writeFileSync(path.join(dirs[i], 'users.xml'), USERS)
    return {
      url,
      kill: async () => void (procs[i] && (await killed(procs[i]!))),
      restart: async () => void (procs[i] = await launchClickHouse(dirs[i], url)),
    }
  })
  try {
    await Promise.all(nodes.map((n) => n.restart()))
  } catch (e) {
    await stop()
    throw e
  }
  return { nodes, stop }
}
