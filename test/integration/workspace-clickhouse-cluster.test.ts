/**
 * Exactly once on a ClickHouse cluster, with real processes: one ZooKeeper, one shard of two
 * replicas, two `ferry workspace` instances in cluster mode (each on a node of its own, the
 * other as its fallback) and three agents (two uploading to instance A, one to B) under load.
 * Instance A is killed with SIGKILL and started again, then replica 2 (instance B's node) is
 * killed and started again, while the agents write. At the end every point an agent's writer
 * got a 200 for is stored exactly once: lost and duplicated values (by their unique `n`) are
 * counted and both must be 0.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { acknowledged, POINTS, settle, writer } from '../helpers/acked-writer.js'
import { startAgent, type AgentProcess } from '../helpers/agent-process.js'
import { clickhouseMissing } from '../helpers/clickhouse.js'
import { CLUSTER, startCluster, type ClickHouseCluster } from '../helpers/clickhouse-cluster.js'
import {
  anotherInstance,
  createWorkspaceData,
  type WorkspaceData,
} from '../helpers/workspace-process.js'
import { zookeeperMissing } from '../helpers/zookeeper.js'

const missing = clickhouseMissing() ?? zookeeperMissing()
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

function instanceEnv(urls: string[]): Record<string, string> {
  return {
    ENV_WORKSPACE_ENGINE: 'clickhouse',
    ENV_WORKSPACE_CLICKHOUSE_URL: urls.join(','),
    ENV_WORKSPACE_CLICKHOUSE_CLUSTER: CLUSTER,
    ENV_WORKSPACE_CLICKHOUSE_CONNECT_TIMEOUT: '1s',
    ENV_WORKSPACE_CLICKHOUSE_INSERT_TIMEOUT: '10s',
  }
}

function agentEnv(ws: WorkspaceData): Record<string, string> {
  return {
    ENV_DATAWAY: `http://127.0.0.1:${ws.current!.port}?token=${ws.token}`,
    ENV_DATAWAY_RETRY_INITIAL: '50ms',
    ENV_DATAWAY_RETRY_MAX: '500ms',
  }
}

test(
  '2 replicas, 2 workspace instances, 3 agents; an instance and a replica killed: each point once',
  { skip: missing ?? false, timeout: 300_000 },
  async (t) => {
    const cluster: ClickHouseCluster = await startCluster(2)
    const [n1, n2] = cluster.nodes.map((n) => n.url)
    const agents: AgentProcess[] = []
    let a: WorkspaceData | undefined
    let b: WorkspaceData | undefined
    const acked = new Set<number>()
    try {
      a = createWorkspaceData(instanceEnv([n1, n2]))
      b = anotherInstance(a, instanceEnv([n2, n1]))
      await Promise.all([a.start(), b.start()])
      const targets = [a, a, b]
      agents.push(...(await Promise.all(targets.map((w) => startAgent(agentEnv(w))))))
      const writers = agents.map((ag, k) => writer(ag, { n: k * 10_000_000 }, acked))

      await acknowledged(acked, 30 * POINTS)
      await a.current!.stop('SIGKILL')
      await sleep(Math.random() * 300)
      await a.start()
      t.diagnostic(`instance A killed and started again at ${acked.size} acknowledged`)

      await acknowledged(acked, 30 * POINTS)
      await cluster.nodes[1].kill()
      await acknowledged(acked, 10 * POINTS)
      await cluster.nodes[1].restart()
      t.diagnostic(`replica 2 killed and started again at ${acked.size} acknowledged`)

      await acknowledged(acked, 30 * POINTS)
      writers.forEach((w) => w.stop())
      await Promise.all(writers.map((w) => w.done))
      // Read through B, whose node was the one killed: it holds every row once more.
      const r = await settle(b.current!.url, b.token, acked, 120_000)
      t.diagnostic(`acknowledged ${acked.size}, stored ${r.stored}, lost ${r.lost}, dup ${r.dup}`)
      assert.ok(acked.size >= 30 * POINTS)
      assert.deepEqual(
        { lost: r.lost, dup: r.dup, stored: r.stored },
        { lost: 0, dup: 0, stored: acked.size },
      )
    } finally {
      await Promise.all(agents.map((ag) => ag.stop()))
      await Promise.all([a?.current?.stop(), b?.current?.stop()])
      await cluster.stop()
    }
  },
)
