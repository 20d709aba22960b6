/**
 * Bodies read into reused buffers, through the real decode pool: many different bodies at once,
 * each in a buffer an earlier body used and with its payload written into a spare buffer an
 * earlier payload left, give exactly the payload (what is buffered and uploaded) and answer
 * that a decode of a private copy gives; the workers hand buffers back, and the pool reuses
 * them.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { BufferPool } from '../../../src/shared/buffer-pool.js'
import { DecodePool } from '../../../src/ingest/pool.js'
import { processTask } from '../../../src/ingest/process.js'
import { plainTask, type DecodeOk } from '../../../src/ingest/protocol.js'

const NOW = 1_700_000_000_000_000_000n

/** A body of `lines` points that differs with `seed`: strings, bools, escapes, exponents. */
function body(seed: number, lines: number): Uint8Array {
  const out: string[] = []
  for (let i = 0; i < lines; i++) {
    const n = seed * 1000 + i
    const host = `host\\ ${n % 7}`
    const value = n % 5 === 0 ? `${n}e0` : `${(n * 1.25).toFixed(2)}`
    out.push(
      `cpu,host=${host},core=c${n % 3} usage=${value},n=${n}i,gov="p\\"s${n}",on=${n % 2 === 0} ${NOW + BigInt(n)}`,
    )
  }
  return Buffer.from(out.join('\n'))
}

const strip = (r: DecodeOk) => ({ ...r, payloadCrc: undefined, payload: Buffer.from(r.payload) })

test('many different bodies at once in reused buffers: each payload and answer as decoded alone', async () => {
  const bodies = new BufferPool(8 * 2 ** 20)
  const pool = new DecodePool({ workers: 2, maxQueue: 256, bodies })
  await pool.start()
  try {
    for (let round = 0; round < 6; round++) {
      const seeds = Array.from({ length: 24 }, (_, i) => round * 24 + i)
      const got = await Promise.all(
        seeds.map((s) => {
          const bytes = body(s, 20 + ((s * 7) % 40))
          const view = bodies.take(bytes.length)
          view.set(bytes)
          return pool.decode(plainTask(view, 'metric', { now: NOW }))
        }),
      )
      for (const [i, s] of seeds.entries()) {
        const bytes = body(s, 20 + ((s * 7) % 40))
        const alone = await processTask(plainTask(bytes, 'metric', { now: NOW }))
        assert.ok(alone.ok)
        assert.deepEqual(strip(got[i]), strip(alone), `seed ${s}`)
        // As accept does once the payload is committed: its buffer serves a later task.
        if (got[i].payloadRoom) bodies.give(got[i].payload.buffer as ArrayBuffer)
      }
    }
    const { reused, allocated } = bodies.stats
    assert.ok(reused > 100, `reused ${reused}`)
    // Every body took a buffer; the rest are idle payload buffers lent to the workers as spares.
    const spares = reused + allocated - 6 * 24
    assert.ok(spares > 50, `spares ${spares}`)
  } finally {
    await pool.shutdown()
  }
})
