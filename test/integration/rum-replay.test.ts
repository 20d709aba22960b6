/**
 * Session replay from the browser to the workspace, durably: an upload answered 200 while the
 * upstream is unreachable survives the agent's SIGKILL and reaches the workspace after a
 * restart, with its fields.
 */
import assert from 'node:assert/strict'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { test } from 'node:test'
import { startAgent } from '../helpers/agent-process.js'
import { waitFor } from '../helpers/sink-server.js'
import { createWorkspaceData } from '../helpers/workspace-process.js'

interface Replay {
  app_id: string
  view_id: string
  size: number
  fields: Record<string, string>
}

test('a replay answered 200 survives kill -9 before its upload', { timeout: 120_000 }, async () => {
  const ws = createWorkspaceData()
  const service = await ws.start()
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-replay-'))
  // Nothing listens on port 1: the replay waits in the agent's queue.
  const down = await startAgent(
    { ENV_DATAWAY: `http://127.0.0.1:1?token=${ws.token}` },
    '',
    dataDir,
  )
  const form = new FormData()
  for (const [k, v] of [
    ['app_id', 'app-1'],
    ['env', 'prod'],
    ['view_id', 'view-9'],
  ])
    form.set(k, v)
  form.set('segment', new Blob([new Uint8Array([31, 139, 8, 0, 1, 2, 3])]), 'segment.gz')
  const res = await fetch(`${down.url}/v1/write/rum/replay`, { method: 'POST', body: form })
  assert.equal(res.status, 200)
  await down.stop('SIGKILL')
  const up = await startAgent({ ENV_DATAWAY: `${service.url}?token=${ws.token}` }, '', dataDir)
  try {
    let list: Replay[] = []
    await waitFor(
      async () => {
        const r = await fetch(`${service.url}/api/v1/rum/replay/list`, {
          headers: { 'DF-API-KEY': ws.key },
        })
        list = ((await r.json()) as { content: Replay[] }).content
        return list.length > 0
      },
      30_000,
      'the replay in the workspace',
    )
    assert.equal(list.length, 1)
    assert.deepEqual(
      { app: list[0].app_id, view: list[0].view_id, size: list[0].size, env: list[0].fields.env },
      { app: 'app-1', view: 'view-9', size: 7, env: 'prod' },
    )
  } finally {
    await up.stop()
    await service.stop()
  }
})
