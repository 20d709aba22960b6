/**
 * The shedding bookkeeping (`src/http/shed.ts`) on a virtual clock: a refused client is shed
 * for the Retry-After it was told, its held requests are released exactly once when that ends
 * (or on clear), a client that sent while shed is shed twice as long next time (up to the
 * most), the held budget and the per-address connection cap are kept, and shedding off sheds
 * no one.
 */
import assert from 'node:assert/strict'
import { test, type TestContext } from 'node:test'
import { MAX_CLIENTS, ShedTable, type ShedLimits } from '../../../src/http/shed.js'

const LIMITS: ShedLimits = { enabled: true, maxParked: 3, maxConnectionsPerClient: 2, maxMs: 4000 }

function table(t: TestContext, limits: Partial<ShedLimits> = {}) {
  t.mock.timers.enable({ apis: ['setTimeout', 'Date'] })
  const log: string[] = []
  const events = {
    started: (c: string, s: number) => log.push(`started ${c} ${s}`),
    ended: (c: string, held: number) => log.push(`ended ${c} ${held}`),
    refused: (c: string) => log.push(`refused ${c}`),
    connectionRefused: (p: string, open: number) => log.push(`connection ${p} ${open}`),
  }
  const shed = new ShedTable({ ...LIMITS, ...limits }, events, () => Date.now())
  return { shed, log, tick: (ms: number) => t.mock.timers.tick(ms) }
}

test('a refused client is shed until its Retry-After, then not', (t) => {
  const { shed, log, tick } = table(t)
  assert.equal(shed.remaining('a'), 0)
  assert.equal(shed.refuse('a', 1000), 1)
  assert.equal(shed.remaining('a'), 1000)
  assert.equal(shed.remaining('b'), 0)
  tick(400)
  assert.equal(shed.remaining('a'), 600)
  // A second refusal while shed extends to its own Retry-After, and is not a new shed.
  assert.equal(shed.refuse('a', 1000), 1)
  tick(999)
  assert.equal(shed.remaining('a'), 1)
  tick(1)
  assert.equal(shed.remaining('a'), 0)
  assert.equal(shed.clients, 0)
  assert.deepEqual(log, ['started a 1', 'ended a 0'])
})

test('held requests are released once, when their client shed ends', (t) => {
  const { shed, log, tick } = table(t)
  const released: string[] = []
  const park = (client: string, name: string) => shed.park(client, () => released.push(name))
  assert.equal(park('a', 'x'), false, 'not shed: nothing held')
  shed.refuse('a', 1000)
  shed.refuse('b', 2000)
  assert.deepEqual([park('a', 'a1'), park('a', 'a2'), park('b', 'b1')], [true, true, true])
  // The budget (3) is taken: the next is not held.
  assert.equal(park('b', 'b2'), false)
  assert.equal(shed.parked, 3)
  tick(1000)
  assert.deepEqual(released, ['a1', 'a2'])
  assert.equal(shed.parked, 1)
  tick(1000)
  assert.deepEqual(released, ['a1', 'a2', 'b1'])
  assert.equal(shed.parked, 0)
  tick(5000)
  assert.deepEqual(released, ['a1', 'a2', 'b1'])
  assert.deepEqual(log, ['started a 1', 'started b 2', 'ended a 2', 'ended b 1'])
})

test('clear releases everything held at once (shutdown)', (t) => {
  const { shed } = table(t)
  let released = 0
  shed.refuse('a', 30_000)
  shed.park('a', () => released++)
  shed.clear()
  assert.equal(released, 1)
  assert.equal(shed.remaining('a'), 0)
  assert.equal(shed.parked, 0)
})

test('shedding off, or a zero budget: no one shed, nothing held', (t) => {
  const off = table(t, { enabled: false }).shed
  assert.equal(off.refuse('a', 1000), 0)
  assert.equal(off.remaining('a'), 0)
  t.mock.timers.reset()
  const none = table(t, { maxParked: 0 }).shed
  assert.equal(none.refuse('a', 1000), 1)
  assert.equal(
    none.park('a', () => undefined),
    false,
  )
})

test('connections are counted per address up to the cap; 0 is no cap', (t) => {
  const { shed } = table(t)
  assert.equal(shed.connect('p'), true)
  assert.equal(shed.connect('p'), true)
  assert.equal(shed.connect('p'), false)
  assert.equal(shed.connect('q'), true)
  assert.equal(shed.connectionsOf('p'), 2)
  shed.disconnect('p')
  assert.equal(shed.connect('p'), true)
  shed.limits = { ...LIMITS, maxConnectionsPerClient: 0 }
  for (let i = 0; i < 100; i++) assert.equal(shed.connect('p'), true)
  for (let i = 0; i < 102; i++) shed.disconnect('p')
  assert.equal(shed.connectionsOf('p'), 0)
})

test('at most MAX_CLIENTS are shed at once; past it a refused client is not', (t) => {
  const { shed, tick } = table(t)
  for (let i = 0; i < MAX_CLIENTS; i++) assert.equal(shed.refuse(`c${i}`, 1000), 1)
  assert.equal(shed.refuse('late', 1000), 0)
  assert.equal(shed.remaining('late'), 0)
  tick(1000)
  assert.equal(shed.clients, 0)
  assert.equal(shed.refuse('late', 1000), 1)
})

test('a client that sent while shed is shed twice as long next time, up to the most', (t) => {
  const { shed, tick } = table(t)
  const hold = () =>
    assert.equal(
      shed.park('a', () => undefined),
      true,
    )
  assert.equal(shed.refuse('a', 1000), 1)
  hold()
  tick(1000)
  assert.equal(shed.refuse('a', 1000), 2)
  hold()
  tick(2000)
  assert.equal(shed.refuse('a', 1000), 4)
  hold()
  tick(4000)
  assert.equal(shed.refuse('a', 1000), 4, 'maxMs')
  // It waited this time (nothing held): the next shed is as announced.
  tick(4000)
  assert.equal(shed.refuse('a', 1000), 1)
  hold()
  tick(1000)
  // Refused again only after twice its last shed: forgiven.
  tick(2000)
  assert.equal(shed.refuse('a', 1000), 1)
})
