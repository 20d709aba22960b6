/**
 * Workspace databases with many points in `M::cpu`, for tests that need several row groups
 * (damage, repair): writes of 100,000 points each, `usage` equal to the point's index, ten
 * hosts, one ms apart from an hour ago on.
 */
import assert from 'node:assert/strict'
import { loadConfig } from '../../src/config/load.js'
import { silentLogger } from '../../src/telemetry/logger.js'
import { WorkspaceService } from '../../src/workspace/service.js'

export const FILL_PART = 100_000

/** Posts `parts` writes of FILL_PART points to `url` (a workspace's metric write URL). */
export async function writeCpuPoints(url: string, parts: number): Promise<void> {
  const base = (Date.now() - 3_600_000) * 1_000_000
  for (let part = 0; part < parts; part++) {
    const lines: string[] = []
    for (let i = part * FILL_PART; i < (part + 1) * FILL_PART; i++)
      lines.push(`cpu,host=h${i % 10} usage=${i} ${base + i * 1_000_000}`)
    const res = await fetch(url, { method: 'POST', body: lines.join('\n') })
    assert.equal(res.status, 200, await res.text())
  }
}

/**
 * Starts a service (one DuckDB thread) on `dir`, fills `M::cpu` of the workspace named
 * `workspace` (the default workspace, as a first start makes it, when none is named), stops it
 * and returns that workspace's id.
 */
export async function fillWorkspace(
  dir: string,
  parts: number,
  workspace?: string,
): Promise<string> {
  const { config } = loadConfig('/nonexistent', {
    ENV_WORKSPACE_LISTEN: '127.0.0.1:0',
    ENV_WORKSPACE_THREADS: '1',
  })
  const service = new WorkspaceService(config.workspace, dir, silentLogger())
  await service.start()
  try {
    const ws =
      workspace === undefined
        ? await service.ensureDefaultWorkspace(config.workspace.default_workspace)
        : await service.ensureWorkspace(workspace)
    await writeCpuPoints(
      `http://127.0.0.1:${service.address().port}/v1/write/metric?token=${ws.token}`,
      parts,
    )
    return ws.id
  } finally {
    await service.shutdown()
  }
}
