import assert from 'node:assert/strict'
import { test } from 'node:test'
import { FerryError } from '../../../src/errors.js'
import { Events } from '../../../src/telemetry/events.js'
import { LogLimiter } from '../../../src/telemetry/log-limit.js'
import { createLogger } from '../../../src/telemetry/logger.js'
import { createMetrics } from '../../../src/telemetry/metrics.js'
import { captureLog } from '../../helpers/log-capture.js'

test('200 bad writes log 5 lines, then one summary with the count when the window ends', async () => {
  let now = 1_000_000
  const { lines, destination } = captureLog()
  const log = createLogger('info', {
    limit: { windowMs: 10_000, burst: 5, now: () => now },
    destination,
  })
  const metrics = createMetrics()
  const events = new Events(log, metrics)
  const bad = new FerryError('invalidLinePoint', "unable to parse 'x'(pos: 0): no field")
  for (let i = 0; i < 200; i++) {
    events.writeRejected('metric', 'agent-http', bad)
    now += 10 // 200 writes within 2 s
  }
  await new Promise((r) => setImmediate(r))
  assert.equal(lines.length, 5)
  assert.ok(lines.every((l) => l.event === 'write_rejected'))
  // Every rejection is still counted.
  const counted = await metrics.writesRejected.get()
  assert.equal(counted.values[0].value, 200)

  now += 10_000
  events.writeRejected('metric', 'agent-http', bad)
  await new Promise((r) => setImmediate(r))
  assert.equal(lines.length, 7)
  assert.deepEqual(
    { event: lines[5].event, code: lines[5].code, level: lines[5].level, msg: lines[5].msg },
    {
      event: 'write_rejected',
      code: 'agent.invalidLinePoint',
      level: 'warn',
      msg: '...and 195 more like this in the last 10 s',
    },
  )
  assert.equal(lines[5].suppressed, 195)
  assert.equal(lines[6].msg, bad.message)
})

test('kinds are limited apart; info lines are never limited', async () => {
  const { lines, destination } = captureLog()
  const log = createLogger('info', {
    limit: { windowMs: 10_000, burst: 2, now: () => 0 },
    destination,
  })
  for (let i = 0; i < 10; i++) {
    log.warn({ event: 'a' }, 'a')
    log.warn({ event: 'b' }, 'b')
    log.info({ event: 'c' }, 'c')
  }
  await new Promise((r) => setImmediate(r))
  const by = (e: string) => lines.filter((l) => l.event === e).length
  assert.deepEqual([by('a'), by('b'), by('c')], [2, 2, 10])
})

test('a burst of 0 writes every line', async () => {
  const { lines, destination } = captureLog()
  const log = createLogger('info', { limit: { windowMs: 10_000, burst: 0 }, destination })
  for (let i = 0; i < 50; i++) log.warn({ event: 'a' }, 'a')
  await new Promise((r) => setImmediate(r))
  assert.equal(lines.length, 50)
})

test('the sweep writes the summary of a window no later line closes, once', () => {
  let now = 0
  const limiter = new LogLimiter({ windowMs: 10_000, burst: 1, now: () => now })
  const summaries: string[] = []
  const keep = (s: { message: string }) => summaries.push(s.message)
  for (let i = 0; i < 4; i++) limiter.admit({ event: 'x' }, keep)
  limiter.sweep(keep)
  assert.deepEqual(summaries, [])
  now = 10_000
  limiter.sweep(keep)
  limiter.sweep(keep)
  assert.deepEqual(summaries, ['...and 3 more like this in the last 10 s'])
  assert.equal(limiter.admit({ event: 'x' }, keep), true)
})
