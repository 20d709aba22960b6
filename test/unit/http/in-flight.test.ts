/**
 * The in-flight budgets: a client past its number of requests in flight gets 429 at once, and
 * a write that would pass the agent's budget of body bytes in memory gets 503; both are given
 * back when a request ends, so the next one is accepted.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import type { DecodeOk, DecodeTask, Decoder } from '../../../src/ingest/protocol.js'
import { InlineDecoder } from '../../../src/ingest/inline.js'
import { testApp } from '../../helpers/app.js'

/** Decodes normally, but only when the test lets it go. */
function heldDecoder(): Decoder & { release(): void } {
  const inner = new InlineDecoder(null)
  const waiting: (() => void)[] = []
  return {
    async decode(task: DecodeTask): Promise<DecodeOk> {
      await new Promise<void>((r) => waiting.push(r))
      return inner.decode(task)
    },
    release: () => waiting.splice(0).forEach((r) => r()),
  }
}

const write = (app: ReturnType<typeof testApp>['app'], body: string) =>
  app.request('/v1/write/metric', {
    method: 'POST',
    body,
    headers: { 'content-length': String(Buffer.byteLength(body)) },
  })

test('past its requests in flight a client gets 429 at once; a finished one frees a slot', async () => {
  const decoder = heldDecoder()
  const { app } = testApp({ decoder, env: { ENV_HTTP_MAX_IN_FLIGHT_PER_CLIENT: '2' } })
  const held = [write(app, 'm v=1i'), write(app, 'm v=2i')]
  await new Promise((r) => setTimeout(r, 20))
  const third = await write(app, 'm v=3i')
  assert.equal(third.status, 429)
  assert.equal(third.headers.get('retry-after'), '1')
  assert.deepEqual(await third.json(), {
    error_code: 'agent.reachMaxAPILimit',
    message: 'more than 2 requests in flight from local',
  })
  decoder.release()
  assert.deepEqual(
    (await Promise.all(held)).map((r) => r.status),
    [200, 200],
  )
  const again = write(app, 'm v=4i')
  await new Promise((r) => setTimeout(r, 20))
  decoder.release()
  assert.equal((await again).status, 200)
})

test('a write past the body budget gets 503 before its body is read', async () => {
  const decoder = heldDecoder()
  const { app, buffer } = testApp({ decoder, env: { ENV_HTTP_MAX_BODY_BYTES_IN_FLIGHT: '1000' } })
  // A metric keeps no string field: the number keeps the point (a field-less one is dropped).
  const big = `m v=1i,pad="${'x'.repeat(580)}"`
  const first = write(app, big)
  await new Promise((r) => setTimeout(r, 20))
  const second = await write(app, big)
  assert.equal(second.status, 503)
  assert.equal(second.headers.get('retry-after'), '1')
  assert.equal(((await second.json()) as { error_code: string }).error_code, 'agent.agentBusy')
  decoder.release()
  assert.equal((await first).status, 200)
  assert.equal(buffer.stats().batches, 1)
  const third = write(app, big)
  await new Promise((r) => setTimeout(r, 20))
  decoder.release()
  assert.equal((await third).status, 200, 'the budget was given back')
})
