/**
 * Points left with no field once the corrections ran (a metric whose only field was a string,
 * keys that all collided or repeated) are not points any more: line protocol cannot carry
 * them, and the reference agent neither echoes nor keeps them. They are dropped here and
 * counted, under the warning type `no_field`, beside the corrections that emptied them.
 *
 * Invariant: the array is returned as is (no copy) when no point is empty.
 */
import type { Point } from '../../shared/point.js'

export const NO_FIELD = 'no_field'

/** Removes field-less points in place; returns how many were removed. */
export function dropEmpty(points: Point[]): number {
  let kept = 0
  for (let i = 0; i < points.length; i++) {
    const p = points[i]
    if (p.fields.length === 0) continue
    if (kept !== i) points[kept] = p
    kept++
  }
  const dropped = points.length - kept
  points.length = kept
  return dropped
}
