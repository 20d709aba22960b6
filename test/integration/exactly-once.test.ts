/**
 * Exactly once from agent to workspace, with real processes: agents with fresh buffers
 * writing to one workspace at once, agents killed with SIGKILL while uploading, the workspace
 * killed with SIGKILL while agents upload, and a buffer deleted and made again. Every point
 * that got a 200 must be stored once: losses and duplicates are counted and both must be 0.
 * The agents reopen their buffer's environment after every 16 KiB read back (`[dataway.wal]
 * max_resident`), so reopens happen all through the uploads and the kills.
 */
import assert from 'node:assert/strict'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { test } from 'node:test'
import { acknowledged, POINTS, settle as settleAt, writer } from '../helpers/acked-writer.js'
import { startAgent } from '../helpers/agent-process.js'
import { createWorkspaceData, type WorkspaceData } from '../helpers/workspace-process.js'

const KILLS = Number(process.env.CRASH_KILLS ?? 10)

function agentEnv(ws: WorkspaceData): Record<string, string> {
  return {
    ENV_DATAWAY: `http://127.0.0.1:${ws.current!.port}?token=${ws.token}`,
    ENV_DATAWAY_RETRY_INITIAL: '20ms',
    ENV_DATAWAY_RETRY_MAX: '200ms',
    ENV_DATAWAY_WAL_MAX_RESIDENT: '16KiB',
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
const settle = (ws: WorkspaceData, acked: Set<number>) => settleAt(ws.current!.url, ws.token, acked)

for (const agents of [2, 5]) {
  test(
    `${agents} agents with fresh buffers, one workspace: each point once`,
    { timeout: 180_000 },
    async (t) => {
      const ws = createWorkspaceData()
      await ws.start()
      const started = await Promise.all(
        Array.from({ length: agents }, () => startAgent(agentEnv(ws))),
      )
      const acked = new Set<number>()
      try {
        const writers = started.map((a, k) => writer(a, { n: k * 1_000_000 }, acked))
        await acknowledged(acked, agents * 20 * POINTS)
        writers.forEach((w) => w.stop())
        await Promise.all(writers.map((w) => w.done))
        const r = await settle(ws, acked)
        t.diagnostic(`acknowledged ${acked.size}, stored ${r.stored}, lost ${r.lost}, dup ${r.dup}`)
        assert.ok(acked.size >= agents * POINTS)
        assert.deepEqual(
          { lost: r.lost, dup: r.dup, stored: r.stored },
          { lost: 0, dup: 0, stored: acked.size },
        )
      } finally {
        await Promise.all(started.map((a) => a.stop()))
        await ws.current!.stop()
      }
    },
  )
}

test(
  `agent SIGKILL x${KILLS} while uploading: each acknowledged point once`,
  { timeout: 240_000 },
  async (t) => {
    const ws = createWorkspaceData()
    await ws.start()
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-eo-'))
    const acked = new Set<number>()
    const next = { n: 0 }
    try {
      for (let k = 0; k < KILLS; k++) {
        const agent = await startAgent(agentEnv(ws), '', dataDir)
        const writers = [writer(agent, next, acked), writer(agent, next, acked)]
        await acknowledged(acked, 10 * POINTS)
        await sleep(Math.random() * 400)
        await agent.stop('SIGKILL')
        await Promise.all(writers.map((w) => w.done))
      }
      const agent = await startAgent(agentEnv(ws), '', dataDir)
      const r = await settle(ws, acked)
      await agent.stop()
      t.diagnostic(
        `acknowledged ${acked.size} over ${KILLS} kills; stored ${r.stored}, lost ${r.lost}, dup ${r.dup}`,
      )
      assert.ok(acked.size > 0)
      assert.deepEqual({ lost: r.lost, dup: r.dup }, { lost: 0, dup: 0 })
    } finally {
      await ws.current!.stop()
    }
  },
)

test(
  `workspace SIGKILL x${KILLS} while agents upload: each acknowledged point once`,
  { timeout: 240_000 },
  async (t) => {
    const ws = createWorkspaceData()
    await ws.start()
    const agent = await startAgent(agentEnv(ws))
    const acked = new Set<number>()
    const w = writer(agent, { n: 0 }, acked)
    try {
      for (let k = 0; k < KILLS; k++) {
        await acknowledged(acked, 10 * POINTS)
        await sleep(Math.random() * 500)
        await ws.current!.stop('SIGKILL')
        await sleep(Math.random() * 300)
        await ws.start()
      }
      w.stop()
      await w.done
      const r = await settle(ws, acked)
      t.diagnostic(
        `acknowledged ${acked.size} over ${KILLS} kills; stored ${r.stored}, lost ${r.lost}, dup ${r.dup}`,
      )
      assert.ok(acked.size > 0)
      assert.deepEqual({ lost: r.lost, dup: r.dup }, { lost: 0, dup: 0 })
      const metrics = await (await fetch(`${agent.url}/metrics`)).text()
      const remaps = Number(/^ferry_buffer_remaps_total (\d+)/m.exec(metrics)?.[1])
      t.diagnostic(`buffer reopened ${remaps} times`)
      assert.ok(remaps > 0, 'the buffer was reopened during the uploads')
    } finally {
      w.stop()
      await agent.stop()
      await ws.current!.stop()
    }
  },
)

test(
  'a buffer deleted and made again shares no ids with the old one',
  { timeout: 120_000 },
  async () => {
    const ws = createWorkspaceData()
    await ws.start()
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-eo-'))
    const acked = new Set<number>()
    const ids: string[] = []
    try {
      for (const round of [0, 1]) {
        const agent = await startAgent(agentEnv(ws), '', dataDir)
        const ping = (await (await fetch(`${agent.url}/v1/ping`)).json()) as {
          content: { buffer_id: string }
        }
        assert.match(ping.content.buffer_id, /^[0-9a-f]{24}$/)
        ids.push(ping.content.buffer_id)
        const w = writer(agent, { n: round * 1_000_000 }, acked)
        await acknowledged(acked, 20 * POINTS)
        w.stop()
        await w.done
        assert.equal((await settle(ws, acked)).lost, 0)
        await agent.stop()
        fs.rmSync(path.join(dataDir, 'buffer'), { recursive: true, force: true })
      }
      const r = await settle(ws, acked)
      assert.notEqual(ids[0], ids[1])
      assert.deepEqual(
        { lost: r.lost, dup: r.dup, stored: r.stored },
        { lost: 0, dup: 0, stored: acked.size },
      )
    } finally {
      await ws.current!.stop()
    }
  },
)
