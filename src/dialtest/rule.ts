/** The reference's success rule: `and` (default) or `or` over the checks and the request error. */
import type { Verdict } from './types.js'

export interface Outcome {
  ok: boolean
  /** Present when the task failed (possibly empty under `or` when no check passed). */
  failReason?: string
}

export function decide(v: Verdict, reqError: string, logic: string | undefined): Outcome {
  const reasons = reqError ? [...v.reasons, reqError] : v.reasons
  if (logic === 'or') {
    if (v.passed && !reqError) return { ok: true }
    return { ok: false, failReason: reasons.join(';') }
  }
  if (!reqError && reasons.length === 0) return { ok: true }
  return { ok: false, failReason: reasons.join(';') }
}

/** Sets the reference's `status`, `success` and `fail_reason` from an outcome. */
export function applyOutcome(
  o: Outcome,
  tags: Record<string, string>,
  fields: Record<string, unknown>,
): void {
  tags.status = o.ok ? 'OK' : 'FAIL'
  fields.success = o.ok ? 1 : -1
  if (o.failReason !== undefined) fields.fail_reason = o.failReason
}
