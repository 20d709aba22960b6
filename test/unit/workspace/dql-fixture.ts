/** A workspace holding the golden dataset (dataset.ts), asked DQL at the dataset's clock. */
import assert from 'node:assert/strict'
import { after, before } from 'node:test'
import {
  runQueries,
  type QueryContext,
  type QueryResult,
} from '../../../src/workspace/dql/execute.js'
import { startWorkspace, writeLp, type TestWorkspace } from '../../helpers/workspace.js'
import { logLines, metricLines, NOW, objectLines } from './dataset.js'

/** Starts the workspace before the file's tests and stops it after; returns the asker. */
export function datasetWorkspace() {
  const { ask } = datasetContext()
  return ask
}

/**
 * The same, with the query context for tests that also plan (the golden tests). `env` (read
 * before the workspace starts) chooses the engine, as the workspace's environment would.
 */
export function datasetContext(env: () => Promise<Record<string, string>> = async () => ({})) {
  let w: TestWorkspace
  before(async () => {
    w = await startWorkspace(await env())
    for (const [cat, body] of [
      ['metric', metricLines()],
      ['logging', logLines()],
      ['object', objectLines()],
    ]) {
      const res = await writeLp(w, cat, body)
      assert.equal(res.status, 200, await res.text())
    }
  })
  after(() => w.stop())
  const context = async (): Promise<QueryContext> => {
    const deps = w.service.deps!
    const ws = await w.service.ensureWorkspace('test')
    return {
      engine: deps.engine,
      workspaceId: ws.id,
      maxRows: 1000,
      timeoutMs: 10_000,
      now: () => NOW,
    }
  }
  const ask = async (
    query: string,
    options: Record<string, unknown> = {},
  ): Promise<QueryResult> => {
    const [r] = await runQueries(await context(), { queries: [{ query, ...options }] })
    return r
  }
  return { ask, context }
}
