/**
 * The pipeline in the real agent (child process, real workers and sandboxes, real upstream):
 * a runaway script is stopped while the agent keeps taking writes, its points are delivered
 * unchanged and counted; a changed script loads without a restart, and a broken change is
 * reported while the previous version keeps running.
 */
import assert from 'node:assert/strict'
import { after, test } from 'node:test'
import { kv } from '../helpers/pipeline.js'
import { startPipelineAgent } from '../helpers/pipeline-agent.js'
import { waitFor } from '../helpers/sink-server.js'

const cleanup: (() => Promise<unknown>)[] = []
after(async () => {
  for (const f of cleanup.reverse()) await f()
})

test('pipeline in the agent: runaway scripts, hot reload, compile errors', async () => {
  const { agent, sink, script } = await startPipelineAgent(
    { 'spin.js': 'while (true) {}', 'app.p': 'add_key(version, 1)' },
    {
      ENV_PIPELINE_BATCH_TIMEOUT: '200ms',
      ENV_PIPELINE_RELOAD_INTERVAL: '200ms',
      ENV_PIPELINE_TIMEZONE: 'UTC',
    },
    cleanup,
  )
  const write = async (body: string) => {
    const res = await fetch(`${agent.url}/v1/write/logging`, { method: 'POST', body })
    assert.equal(res.status, 200, await res.text())
  }

  // The runaway script: writes still answer, points arrive unchanged, the error is counted.
  await Promise.all([
    write('spin message="a"'),
    write('spin message="b"'),
    write('app message="c"'),
  ])
  await waitFor(() => sink.points().length === 3, 15_000, 'delivery')
  const byMessage = new Map(sink.points().map((p) => [kv(p).message, kv(p)]))
  assert.deepEqual(byMessage.get('a'), {
    message: 'a',
    status: 'unknown',
    host: byMessage.get('a')!.host,
  })
  assert.equal(byMessage.get('c')!.version, 1)
  const metrics = await (await fetch(`${agent.url}/metrics`)).text()
  assert.match(metrics, /ferry_pipeline_errors_total\{category="logging",script="spin"\} 2/)
  assert.ok(
    agent.logs.some((l) => l.includes('"pipeline_failed"') && l.includes('"script":"spin"')),
  )

  // A new version loads without a restart.
  script('app.p', 'add_key(version, 2)')
  await waitFor(
    () => agent.logs.some((l) => l.includes('"pipeline_loaded"') && l.includes('"version":2')),
    10_000,
    'reload',
  )
  await write('app message="d"')
  await waitFor(() => sink.points().length === 4, 15_000, 'delivery after reload')
  assert.equal(kv(sink.points()[3]).version, 2)

  // A broken version is reported; version 2 keeps running.
  script('app.p', 'add_key(version, 3')
  await waitFor(
    () => agent.logs.some((l) => l.includes('"pipeline_compile_failed"')),
    10_000,
    'compile error',
  )
  await write('app message="e"')
  await waitFor(() => sink.points().length === 5, 15_000, 'delivery after a broken change')
  assert.equal(kv(sink.points()[4]).version, 2)
})
