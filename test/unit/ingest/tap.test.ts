import assert from 'node:assert/strict'
import { test } from 'node:test'
import { PbWriter } from '../../../src/decode/codec/pb-writer.js'
import { encodePoint } from '../../../src/decode/codec/protobuf.js'
import { FerryError } from '../../../src/errors.js'
import { formatBatch, parseFilter } from '../../../src/ingest/tap-format.js'
import { TapHub } from '../../../src/ingest/tap.js'
import { Kind, newPoint } from '../../../src/shared/point.js'

function events() {
  const e = { drops: 0, clients: 0 }
  return {
    e,
    sink: {
      attached: (n: number) => (e.clients = n),
      detached: (n: number) => (e.clients = n),
      dropped: (_c: string, n: number) => (e.drops += n),
    },
  }
}

const batch = (points: number, category = 'metric') => ({
  category,
  payload: new Uint8Array(0),
  points,
})

test('no tap attached: inactive; a tap that never reads holds its queue and counts the rest', async () => {
  const { e, sink } = events()
  const hub = new TapHub({ maxClients: 2, queuePoints: 100 }, sink)
  assert.equal(hub.active, false)
  const tap = hub.attach(new Set(['metric']))
  assert.equal(hub.active, true)
  for (let i = 0; i < 50; i++) hub.offer(batch(10))
  hub.offer(batch(10, 'logging')) // not its category: neither queued nor dropped
  assert.equal(e.drops, 400)
  const first = await tap.next()
  assert.equal(first?.points, 10)
  tap.close()
  tap.close()
  assert.equal(await tap.next(), null)
  assert.equal(hub.active, false)
  assert.equal(e.clients, 0)
})

test('at most max_clients taps', () => {
  const hub = new TapHub({ maxClients: 1, queuePoints: 10 }, events().sink)
  hub.attach(new Set())
  assert.throws(
    () => hub.attach(new Set()),
    (err: unknown) => err instanceof FerryError && err.code === 'tapBusy' && err.status === 503,
  )
})

test('filters and formats one line per point', () => {
  const w = new PbWriter(256)
  for (const [name, host] of [
    ['cpu', 'a'],
    ['cpu', 'b'],
    ['mem', 'a'],
  ]) {
    const p = newPoint(name)
    p.tags.push({ key: 'host', value: host })
    p.fields.push({ key: 'v', kind: Kind.FLOAT, value: 1.5 } as never)
    p.time = 5n
    encodePoint(w, p)
  }
  const b = { category: 'metric', payload: w.finish(), points: 3 }
  const view = { filter: parseFilter('measurement=cpu, host!=b'), format: 'lp' as const, sample: 1 }
  assert.equal(formatBatch(b, view), 'cpu,host=a v=1.5 5\n')
  assert.equal(
    formatBatch(b, { ...view, filter: [], format: 'json' }).split('\n')[2],
    '{"category":"metric","measurement":"mem","tags":{"host":"a"},"fields":{"v":1.5},"time":5}',
  )
  assert.equal(formatBatch(b, { ...view, filter: [], sample: 0.5, random: () => 0.7 }), '')
  assert.throws(() => parseFilter('nonsense'), /expected key=value/)
})
