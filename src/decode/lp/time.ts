/**
 * A line's timestamp digits to a bigint within the reference's range (spec 2.3), with the
 * reference's error messages. Numbers of up to 19 digits are built without a string.
 */
import { codes } from './codes.js'
import { LineError } from './token.js'

const MAX_TIME = 9223372036854775806n

/** Decimal digits to bigint, splitting long numbers so the hot path builds no string. */
export function digitsToBigInt(s: string, a: number, b: number): bigint {
  const cc = codes
  const neg = cc[a] === 45
  const from = neg ? a + 1 : a
  if (from >= b) throw new LineError('bad timestamp')
  let hi = 0
  let lo = 0
  const split = Math.max(from, b - 9)
  for (let k = from; k < b; k++) {
    const d = cc[k] - 48
    if (d < 0 || d > 9) throw new LineError('bad timestamp')
    if (k < split) hi = hi * 10 + d
    else lo = lo * 10 + d
  }
  const abs = b - from > 19 ? BigInt(s.slice(from, b)) : BigInt(hi) * 1_000_000_000n + BigInt(lo)
  if (abs > 9223372036854775807n + (neg ? 1n : 0n)) {
    throw new LineError(`strconv.ParseInt: parsing "${s.slice(a, b)}": value out of range`)
  }
  if (abs > MAX_TIME) throw new LineError(`time outside range -${MAX_TIME} - ${MAX_TIME}`)
  return neg ? -abs : abs
}
