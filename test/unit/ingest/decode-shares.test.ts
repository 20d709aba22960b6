/**
 * Each client's share of decoding, on a virtual clock: accounts fade, the lanes start the task
 * of the client with the least recent decode time, and a client past its share while others
 * decode gets 429 with Retry-After (through the write route too).
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { FerryError } from '../../../src/errors.js'
import { DecodeShares, fairShare } from '../../../src/ingest/decode-shares.js'
import { InlineDecoder } from '../../../src/ingest/inline.js'
import { Lanes } from '../../../src/ingest/lanes.js'
import { plainTask } from '../../../src/ingest/protocol.js'
import type { Events } from '../../../src/telemetry/events.js'
import { testApp } from '../../helpers/app.js'

function clock() {
  let t = 0
  return { now: () => t, advance: (ms: number) => void (t += ms) }
}

const settings = { share: 0.5, windowMs: 1000, slots: 2, maxClients: 100 }
const busy = () => new FerryError('agentBusy', 'full')
const tick = () => new Promise((r) => setImmediate(r))

test('an account fades by e each window and the least recently charged are forgotten', () => {
  const c = clock()
  const shares = new DecodeShares({ ...settings, maxClients: 3 }, c.now)
  shares.charge('a', 100)
  c.advance(1000)
  assert.equal(shares.usage('a').toFixed(3), (100 / Math.E).toFixed(3))
  for (const k of ['b', 'c', 'd']) shares.charge(k, 1)
  assert.equal(shares.clients, 3)
  assert.equal(shares.usage('a'), 0)
  assert.equal(shares.usage('d'), 1)
})

test('a client under its share is never delayed behind a hog queue', async () => {
  const c = clock()
  const shares = new DecodeShares(settings, c.now)
  const lanes = new Lanes(1, 100, shares)
  const started: string[] = []
  const gates: (() => void)[] = []
  // Each task takes 100 ms of the virtual clock, counted when its gate opens.
  const job = (name: string) => () =>
    new Promise<void>((resolve) => {
      started.push(name)
      gates.push(() => {
        c.advance(100)
        resolve()
      })
    })
  const all = Array.from({ length: 6 }, (_, i) => lanes.run(false, job(`hog${i}`), busy, 'hog'))
  await tick()
  all.push(lanes.run(false, job('good'), busy, 'good'))
  gates.shift()!()
  await tick()
  // The good client's one task goes before the hog's five queued earlier.
  assert.deepEqual(started, ['hog0', 'good'])
  while (gates.length) {
    gates.shift()!()
    await tick()
  }
  await Promise.all(all)
  assert.deepEqual(started, ['hog0', 'good', 'hog1', 'hog2', 'hog3', 'hog4', 'hog5'])
  // Six tasks of 100 ms against one, each faded from when it ended.
  assert.ok(shares.usage('hog') > 4 * shares.usage('good'))
})

test('past its share while others decode: Retry-After until its account fades back', () => {
  const c = clock()
  const shares = new DecodeShares(settings, c.now) // limit: 0.5 x 2 slots x 1000 ms
  shares.charge('hog', 1500)
  assert.equal(shares.retryAfter('hog'), 0, 'alone: no one to be fair to')
  shares.charge('', 50)
  assert.equal(shares.retryAfter('hog'), 0, "the agent's own inputs are no one to be fair to")
  shares.charge('good', 5)
  assert.equal(shares.retryAfter('hog'), 1) // 1000 ms x ln(1.5) = 405 ms, in whole seconds
  assert.equal(shares.retryAfter('good'), 0)
  shares.charge('', 5000)
  assert.equal(shares.retryAfter(''), 0, "the agent's own inputs are never refused")
  c.advance(406)
  assert.equal(shares.retryAfter('hog'), 0)
  // Nine clients decoding: the hog's split is a ninth of the capacity, under `share`.
  const nine = new DecodeShares(settings, c.now)
  nine.charge('hog', 500)
  for (let i = 0; i < 8; i++) nine.charge(`good${i}`, 10)
  assert.equal(nine.retryAfter('hog'), 1) // 1000 ms x ln(500 / 222)
  assert.equal(nine.retryAfter('good0'), 0)
  // Decoders far from busy (under a quarter of the capacity in all): room to spare.
  const idle = new DecodeShares(settings, c.now)
  idle.charge('hog', 400)
  idle.charge('good', 5)
  assert.equal(idle.retryAfter('hog'), 0)
  const off = new DecodeShares({ ...settings, share: 0 }, c.now)
  off.charge('hog', 1e9)
  off.charge('good', 5)
  assert.equal(off.retryAfter('hog'), 0)
})

test('a write past its share gets 429 decodeShareExceeded with Retry-After; others go on', async () => {
  const c = clock()
  const shares = new DecodeShares(settings, c.now)
  const refused: [string, number][] = []
  const told: { events?: Events } = {}
  const decoder = fairShare(new InlineDecoder(), shares, (client, s) => {
    refused.push([client, s])
    told.events?.decodeShareExceeded(client, s)
  })
  const { app, metrics, events } = testApp({ decoder })
  told.events = events
  // In-process requests stand for a trusted proxy: X-Forwarded-For names the client.
  const write = (ip: string) =>
    app.request('/v1/write/metric', {
      method: 'POST',
      body: 'm f=1i',
      headers: { 'X-Forwarded-For': ip },
    })
  shares.charge('10.0.0.1', 3000)
  shares.charge('10.0.0.2', 10)
  const hog = await write('10.0.0.1')
  assert.equal(hog.status, 429)
  assert.equal(hog.headers.get('retry-after'), '2') // 1000 ms x ln(3) = 1.1 s
  assert.equal(
    ((await hog.json()) as { error_code: string }).error_code,
    'agent.decodeShareExceeded',
  )
  assert.equal((await write('10.0.0.2')).status, 200)
  assert.deepEqual(refused, [['10.0.0.1', 2]])
  assert.ok(shares.usage('10.0.0.2') >= 10)
  const text = await metrics.registry.metrics()
  assert.match(text, /ferry_decode_share_refusals_total 1/)
  assert.match(
    text,
    /ferry_write_rejected_requests_total\{category="metric",code="decodeShareExceeded"\} 1/,
  )
  // A task with no client (the agent's own inputs) is never refused.
  assert.equal((await decoder.decode(plainTask(Buffer.from('m f=1i'), 'metric'))).points, 1)
})
