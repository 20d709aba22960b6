/**
 * Outage: the upstream answers 503 while writes go on. The backlog stays on disk (the agent's
 * heap stays far below it), writes keep being accepted, and afterwards the drain is complete.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { makeBody } from '../../bench/corpus.js'
import { startAgent } from '../helpers/agent-process.js'
import { SinkServer, waitFor } from '../helpers/sink-server.js'

async function metric(url: string, name: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text()
  return Number(new RegExp(`^${name}(?:\\{[^}]*\\})? (\\S+)$`, 'm').exec(text)?.[1] ?? NaN)
}

test(
  'an upstream outage under load: bounded memory, complete drain',
  { timeout: 180_000 },
  async () => {
    const sink = new SinkServer()
    const url = await sink.start()
    sink.mode = { kind: 'status', status: 503 }
    const agent = await startAgent({
      ENV_DATAWAY: url,
      ENV_DATAWAY_RETRY_INITIAL: '100ms',
      ENV_DATAWAY_RETRY_MAX: '500ms',
    })
    try {
      const body = makeBody(1000)
      const writes = 200
      for (let i = 0; i < writes; i += 4) {
        const answers = await Promise.all(
          Array.from({ length: 4 }, () =>
            fetch(`${agent.url}/v1/write/metric`, { method: 'POST', body }),
          ),
        )
        for (const r of answers) assert.equal(r.status, 200)
      }
      const backlog = await metric(agent.url, 'ferry_buffer_bytes\\{category="metric"\\}')
      const heap = await metric(agent.url, 'ferry_nodejs_heap_size_used_bytes')
      assert.ok(backlog > 50e6, `backlog ${backlog} bytes`)
      assert.ok(heap < backlog, `heap ${heap} bytes should not hold the ${backlog}-byte backlog`)
      sink.mode = { kind: 'ok' }
      await waitFor(() => sink.points().length >= writes * 1000, 120_000, 'drain')
      assert.equal(sink.points().length, writes * 1000)
    } finally {
      await agent.stop()
      await sink.stop()
    }
  },
)
