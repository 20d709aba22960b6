/**
 * Memory comes back: after bounded hostile pipeline debug scripts (strings and arrays built up
 * to the sandbox's memory limit, thousands of created points, large fields) decode workers
 * whose heap grew past `[decode] recycle_heap` are replaced, and the agent's resident memory,
 * read from /proc, returns to within 25% of its baseline within 30 s. The agent runs with the
 * malloc settings the service unit and the container give it (src/shared/malloc.ts). Without
 * recycling it gave back nothing (231 MB grew to 1.5 GB and stayed); without those settings
 * it stayed 40-60% above its baseline.
 */
import assert from 'node:assert/strict'
import fs from 'node:fs'
import { test } from 'node:test'
import { MALLOC_TUNABLES } from '../../src/shared/malloc.js'
import { startAgent } from '../helpers/agent-process.js'

const b64 = (s: string) => Buffer.from(s).toString('base64')

/** Resident memory of a process, in bytes. */
function rss(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))
  return Number(m![1]) * 1024
}

// Each bounded, and quick: the sandbox's memory limit, a loop count or the output cap ends it.
const HOSTILE: string[] = [
  "let s = 'x'; for (;;) s += s",
  "let s = 'ab'.repeat(4000000); add_key('big', s + s)",
  'const a = []; for (let i = 0; i < 300; i++) a.push(new Array(10000).fill(1.5))',
  "for (let i = 0; i < 2000; i++) create_point('x', {}, { s: 'y'.repeat(1000) + i })",
  "const a = []; for (let i = 0; i < 2000; i++) a.push('z'.repeat(100000) + i)",
]

async function debug(url: string, script: string): Promise<number> {
  const res = await fetch(`${url}/v1/pipeline/debug`, {
    method: 'POST',
    body: JSON.stringify({
      pipeline: { logging: { 's.js': b64(script) } },
      script_name: 's',
      category: 'logging',
      data: [b64('hello')],
    }),
  })
  await res.arrayBuffer()
  return res.status
}

test(
  'after 30 hostile debug scripts, RSS is back within 25% of its baseline within 30 s',
  { timeout: 600_000 },
  async (t) => {
    const agent = await startAgent(
      {
        ENV_DECODE_WORKERS: '2',
        ENV_PIPELINE_DEBUG_CONCURRENCY: '1',
        GLIBC_TUNABLES: MALLOC_TUNABLES,
      },
      undefined,
      undefined,
      60_000,
    )
    try {
      const pid = agent.child.pid!
      // Warm up as ordinary use does: writes and one harmless debug request.
      for (let i = 0; i < 20; i++)
        await fetch(`${agent.url}/v1/write/logging?dry`, { method: 'POST', body: 'app m="hi"' })
      assert.equal(await debug(agent.url, 'add_key("ok", 1)'), 200)
      await new Promise((r) => setTimeout(r, 3000))
      const baseline = rss(pid)
      let peak = baseline
      for (let round = 0; round < 6; round++)
        for (const script of HOSTILE) {
          assert.equal(await debug(agent.url, script), 200)
          peak = Math.max(peak, rss(pid))
        }
      const attacked = rss(pid)
      const started = Date.now()
      let now = attacked
      while (now > baseline * 1.25 && Date.now() - started < 30_000) {
        await new Promise((r) => setTimeout(r, 500))
        now = rss(pid)
      }
      const mb = (n: number) => `${(n / 1048576).toFixed(0)} MB`
      t.diagnostic(
        `baseline ${mb(baseline)}, peak ${mb(peak)}, after the attack ${mb(attacked)}, ${mb(now)} after ${((Date.now() - started) / 1000).toFixed(1)} s`,
      )
      assert.ok(now <= baseline * 1.25, `RSS ${mb(now)} vs baseline ${mb(baseline)}`)
      const metrics = await (await fetch(`${agent.url}/metrics`)).text()
      const recycled = /^ferry_decode_worker_recycles_total (\d+)/m.exec(metrics)
      assert.ok(Number(recycled?.[1]) > 0, 'workers were recycled')
      assert.ok(agent.logs.some((l) => l.includes('"event":"decode_worker_recycled"')))
      // Writes still answer on the replacement workers.
      const res = await fetch(`${agent.url}/v1/write/logging?dry`, {
        method: 'POST',
        body: 'app m="after"',
      })
      assert.equal(res.status, 200)
    } finally {
      await agent.stop()
    }
  },
)
