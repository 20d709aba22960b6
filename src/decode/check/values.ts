/**
 * Field value corrections (spec 8): NIL and NaN dropped, infinities replaced by the reference's
 * extreme values, strings dropped where not allowed or truncated to LIMITS. Each leaves a `Warn`.
 */
import { addWarn, Kind, type Field, type Point } from '../../shared/point.js'
import { LIMITS, type CheckOptions } from './options.js'
import { byteLength, truncateUtf8 } from './utf8.js'

const INT64_MIN = -9223372036854775808
/** 2^64 - 1 as the nearest double, the value the reference writes for +Inf. */
const UINT64_MAX = 2 ** 64

/** Returns false when the field must be dropped. */
export function fixValue(p: Point, f: Field, opts: CheckOptions): boolean {
  switch (f.kind) {
    case Kind.NIL:
      addWarn(p, 'nil_field', `field ${f.key} has a null value, dropped`)
      return false
    case Kind.FLOAT:
      return fixFloat(p, f)
    case Kind.STRING:
    case Kind.BYTES:
      if (opts.dropStrings) {
        addWarn(
          p,
          'invalid_field_value_type',
          `field ${f.key}: string values are not allowed here, dropped`,
        )
        return false
      }
      fixLongValue(p, f)
      return true
    default:
      return true
  }
}

function fixFloat(p: Point, f: Field): boolean {
  const v = f.value as number
  if (Number.isFinite(v)) return true
  if (Number.isNaN(v)) {
    addWarn(p, 'invalid_field_value_type', `field ${f.key}: NaN dropped`)
    return false
  }
  f.value = v > 0 ? UINT64_MAX : INT64_MIN
  addWarn(
    p,
    v > 0 ? 'convert_inf_to_max_value' : 'convert_inf_to_min_value',
    `field ${f.key}: infinity replaced`,
  )
  return true
}

function fixLongValue(p: Point, f: Field): void {
  const max = LIMITS.maxStringBytes
  if (typeof f.value === 'string' && f.value.length > max / 3 && byteLength(f.value) > max) {
    f.value = truncateUtf8(f.value, max)
  } else if (f.value instanceof Uint8Array && f.value.length > max) {
    f.value = f.value.subarray(0, max)
  } else return
  addWarn(p, 'exceed_max_field_value_len', `field ${f.key}: value truncated to ${max} bytes`)
}
