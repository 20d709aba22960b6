/**
 * A full disk under the buffer: with `min_free_disk = 0` the free-space guard cannot help, so
 * LMDB's commit itself fails. The write is answered 503 with Retry-After, the failure is
 * logged and counted, the agent keeps running, and once space returns writes are accepted
 * again and every acknowledged point is delivered. Needs root to mount a small tmpfs; skips
 * with the reason otherwise.
 */
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { test } from 'node:test'
import { startAgent } from '../helpers/agent-process.js'
import { SinkServer, waitFor } from '../helpers/sink-server.js'

function mountTmpfs(): string | null {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-full-'))
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=48m', 'tmpfs', dir], { stdio: 'ignore' })
    return dir
  } catch {
    return null
  }
}

const body = (from: number) =>
  Array.from(
    { length: 2000 },
    (_, i) => `full,host=h${i % 7} n=${from + i}i,pad="${'x'.repeat(60)}"`,
  ).join('\n')

test(
  'a full disk answers 503, never kills the agent, and writes resume',
  { timeout: 120_000 },
  async (t) => {
    const mnt = process.getuid?.() === 0 ? mountTmpfs() : null
    if (!mnt) return t.skip('mounting a tmpfs needs root')
    const sink = new SinkServer()
    sink.mode = { kind: 'status', status: 503 }
    const url = await sink.start()
    fs.mkdirSync(path.join(mnt, 'data'))
    const agent = await startAgent(
      { ENV_DATAWAY: url, ENV_DATAWAY_WAL_MIN_FREE_DISK: '0', ENV_DATAWAY_RETRY_MAX: '200ms' },
      '',
      path.join(mnt, 'data'),
    )
    const filler = path.join(mnt, 'filler')
    const acked: number[] = []
    const statuses = new Map<string, number>()
    try {
      const write = async (k: number) => {
        const res = await fetch(`${agent.url}/v1/write/metric`, {
          method: 'POST',
          body: body(k * 2000),
        })
        const answer =
          res.status === 200
            ? '200'
            : `${res.status} ${((await res.json()) as { error_code: string }).error_code}`
        statuses.set(answer, (statuses.get(answer) ?? 0) + 1)
        if (res.status === 200) acked.push(k)
        else assert.ok(res.headers.get('retry-after'), 'a 503 says when to retry')
        return answer
      }
      // The agent measures free space at most once a second: a write now primes that figure, and
      // the disk fills right after it, so the next commit fails in LMDB itself (a real ENOSPC).
      // On a loaded machine filling or the next write can outlast that second, and the guard
      // answers bufferFull instead; then free the disk, let the figure expire, and try again.
      for (let attempt = 0; attempt < 10; attempt++) {
        const primed = await fetch(`${agent.url}/v1/write/metric`, {
          method: 'POST',
          body: 'p n=1i',
        })
        assert.equal(primed.status, 200)
        const st = fs.statfsSync(mnt)
        fs.writeFileSync(filler, Buffer.alloc(Math.max(0, st.bavail * st.bsize - 64 * 1024)))
        if ((await write(100 + attempt)) === '503 agent.bufferUnavailable') break
        fs.rmSync(filler)
        await new Promise((r) => setTimeout(r, 1100))
      }
      for (let k = 0; k < 20; k++) await write(k)
      t.diagnostic(`answers while full: ${JSON.stringify([...statuses])}`)
      assert.ok(statuses.get('503 agent.bufferUnavailable'), 'the failed commit is a 503')
      assert.deepEqual(
        [...statuses.keys()].filter(
          (s) => !['200', '503 agent.bufferUnavailable', '503 agent.bufferFull'].includes(s),
        ),
        [],
      )
      assert.equal((await fetch(`${agent.url}/v1/ping`)).status, 200, 'still serving')
      const metrics = await (await fetch(`${agent.url}/metrics`)).text()
      assert.match(metrics, /ferry_buffer_storage_errors_total\{op="commit"\} [1-9]/)

      fs.rmSync(filler)
      sink.mode = { kind: 'ok' }
      await waitFor(
        async () => {
          const res = await fetch(`${agent.url}/v1/write/metric`, {
            method: 'POST',
            body: body(1_000_000),
          })
          return res.status === 200
        },
        20_000,
        'writes accepted again',
      )
      acked.push(500)
      const want = new Set(
        acked.flatMap((k) => Array.from({ length: 2000 }, (_, i) => k * 2000 + i)),
      )
      await waitFor(
        () => {
          const got = new Set(sink.values('n').map(Number))
          return [...want].every((n) => got.has(n))
        },
        30_000,
        'every acknowledged point delivered',
      )
      assert.equal(agent.child.exitCode, null, 'the agent never died')
      assert.ok(agent.logs.some((l) => l.includes('"buffer_storage_failed"')))
      // A failed commit is reported once, as above: no promise of it is left unhandled.
      const internal = agent.logs.filter((l) => l.includes('"event":"internal_error"'))
      assert.deepEqual(internal, [])
    } finally {
      await agent.stop()
      await sink.stop()
      execFileSync('umount', [mnt])
    }
  },
)
