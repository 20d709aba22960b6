/**
 * Delivers one planned window to one upstream.
 *
 * Invariants:
 * - A window is 'done' only when every body of it is delivered, dead-lettered (permanent
 *   refusal) or dropped as expired; anything else leaves it 'unfinished' and the cursor stays.
 * - Once the soft signal is aborted (shutdown), a failed body is 'unfinished', never dropped.
 */
import type { ReadBuffer } from '../../buffer/buffer.js'
import type { Category } from '../../shared/category.js'
import { buildBodies, type UploadBody } from './bodies.js'
import { pool } from './pool.js'
import { groupedBodies } from './sinker.js'
import { UploadError, type Send } from './send.js'
import type { Outcome, UploadEvents, UploaderOptions, Window } from './upload-types.js'
import type { Upstream } from './upstream.js'

/** What delivery needs of the uploader: its buffer, options, events and two stop signals. */
export interface DeliverContext {
  buffer: ReadBuffer
  opts: UploaderOptions
  events: UploadEvents
  soft: AbortSignal
  hard: AbortSignal
}

export async function deliverWindow(
  ctx: DeliverContext,
  up: Upstream,
  c: Category,
  w: Window,
  send: Send,
): Promise<Outcome> {
  const now = Date.now()
  const keep = (receivedAt: number) => now - receivedAt <= ctx.opts.maxAgeMs
  const bodies = w.sinkKeys
    ? groupedBodies(c, ctx.buffer.id, w.batches, w.maxRaw, w.sinkKeys, keep)
    : buildBodies(c, ctx.buffer.id, w.batches, w.maxRaw, keep)
  for (const b of bodies)
    if (b.expiredPoints) ctx.events.pointsDropped(c, 'expired', b.expiredPoints)
  const live = bodies.filter((b) => b.points > 0)
  const outcomes = await pool(live, ctx.opts.concurrency, (b) => deliverBody(ctx, up, b, send))
  return outcomes.includes('unfinished') ? 'unfinished' : 'done'
}

async function deliverBody(
  ctx: DeliverContext,
  up: Upstream,
  body: UploadBody,
  send: Send,
): Promise<Outcome> {
  try {
    await send(body, ctx.hard)
    return 'done'
  } catch (e) {
    if (!(e instanceof UploadError)) throw e
    if (ctx.soft.aborted) return 'unfinished'
    if (e.retryable) {
      ctx.events.pointsDropped(body.category, 'expired', body.points)
      return 'done'
    }
    ctx.events.deadLettered(up.label, body, e)
    await ctx.buffer.addDeadLetter(
      {
        upstream: up.label,
        category: body.category as Category,
        seq: body.lastSeq,
        status: e.httpStatus,
        response: e.responseText,
        at: Date.now(),
        points: body.points,
      },
      ctx.opts.maxDeadLetters,
    )
    return 'done'
  }
}
