/**
 * Point corrections (spec 8, warning names of the reference agent). Each correction leaves a
 * `Warn` on the point, which `strict` turns into a 400 and `echo=pbjson` shows.
 *
 * Invariants:
 * - After `checkPoint`, a point has a non-empty measurement, no NIL field, no key in both tags
 *   and fields (keys equal as sent: the tag wins; equal after a correction: the field wins), no duplicate keys, and every key and value within LIMITS.
 * - The common case (nothing to fix) allocates nothing.
 */
import { addWarn, hasKey, Hint, Kind, type Point } from '../../shared/point.js'
import { checkFields } from './fields.js'
import { nameIsClean } from './keys.js'
import { LIMITS, type CheckOptions } from './options.js'
import { checkTags } from './tags.js'
import { truncateUtf8 } from './utf8.js'

/** Each required entry's warning text, built once: a log body adds `status` to every line. */
const requiredText = new WeakMap<readonly [string, string], string>()

function requiredMessage(entry: readonly [string, string]): string {
  let text = requiredText.get(entry)
  if (text === undefined) {
    text = `add required key-value ${JSON.stringify(entry[0])}: ${JSON.stringify(entry[1])}`
    requiredText.set(entry, text)
  }
  return text
}

function addRequired(p: Point, opts: CheckOptions): void {
  for (const entry of opts.required) {
    const [key, def] = entry
    if (hasKey(p, key)) continue
    p.fields.push({ key, kind: Kind.STRING, value: def })
    addWarn(p, 'add_required_kv', requiredMessage(entry))
  }
}

export function checkPoint(p: Point, opts: CheckOptions): void {
  if (p.name === '') {
    p.name = '__default'
    addWarn(p, 'invalid_measurement', 'empty measurement, set to __default')
  } else if (!((p.hints ?? 0) & Hint.CLEAN) && !nameIsClean(p.name)) {
    p.name = truncateUtf8(p.name, LIMITS.maxMeasurementBytes)
    addWarn(
      p,
      'invalid_measurement',
      `measurement truncated to ${LIMITS.maxMeasurementBytes} bytes`,
    )
  }
  checkFields(p, opts, checkTags(p, opts))
  addRequired(p, opts)
}
