/**
 * Per-point key rules of the byte-level transcoder, on the scanned line's byte ranges: which
 * tags and fields are left out (strings of a category that drops them, disabled keys), which
 * global tags and required fields the point gets, and the corrections to count for them, the
 * same ones the general path's checks report (`check.ts`).
 *
 * Invariant: keys are compared as raw bytes. That equals comparing unescaped keys because an
 * accepted key's backslashes all open escape pairs of `, = space`, and the keys compared with
 * it (global tags, disabled and required keys) hold none of those bytes (`plainKey`).
 */
import { V_DROPPED, type Line } from './fast-line.js'
import type { Additions } from './fast-out.js'

export interface KeyRules {
  disabled: readonly Uint8Array[]
  required: readonly Uint8Array[]
}

/** Correction counts of one task, under the general path's warning names. */
export interface Corrections {
  dropped: number
  disabled: number
  required: number
}

/** Whether a key may be compared as raw bytes with the line's keys (no `,`, `=` or space). */
export function plainKey(key: string): boolean {
  return !/[,= ]/.test(key)
}

function keyIs(b: Uint8Array, line: Line, k: number, key: Uint8Array): boolean {
  const a = line.keys[2 * k]
  if (line.keys[2 * k + 1] - a !== key.length) return false
  let j = 0
  while (j < key.length && b[a + j] === key[j]) j++
  return j === key.length
}

/** Is `key` the key of a tag or field the point keeps? */
function kept(b: Uint8Array, line: Line, key: Uint8Array): boolean {
  const n = line.tags + line.fields
  for (let k = 0; k < n; k++) if (!line.skip[k] && keyIs(b, line, k, key)) return true
  return false
}

function isDisabled(b: Uint8Array, line: Line, k: number, disabled: readonly Uint8Array[]) {
  for (let d = 0; d < disabled.length; d++) if (keyIs(b, line, k, disabled[d])) return true
  return false
}

/**
 * Marks what the point leaves out and what it gets; counts the corrections. Returns the number
 * of fields the point ends with (0: the general path drops the point, the caller bails).
 */
export function applyKeyRules(
  b: Uint8Array,
  line: Line,
  rules: KeyRules,
  add: Additions,
  globalKeys: readonly Uint8Array[],
  c: Corrections,
): number {
  const n = line.tags + line.fields
  let fields = line.fields
  for (let k = 0; k < n; k++) {
    let skip = 0
    if (rules.disabled.length > 0 && isDisabled(b, line, k, rules.disabled)) {
      skip = 1
      c.disabled++
    } else if (k >= line.tags && line.kinds[k] === V_DROPPED) {
      skip = 1
      c.dropped++
    }
    line.skip[k] = skip
    if (skip && k >= line.tags) fields--
  }
  for (let x = 0; x < rules.required.length; x++) {
    const on = kept(b, line, rules.required[x]) ? 0 : 1
    add.fieldsOn[x] = on
    fields += on
    c.required += on
  }
  for (let x = 0; x < globalKeys.length; x++) add.tagsOn[x] = kept(b, line, globalKeys[x]) ? 0 : 1
  return fields
}
