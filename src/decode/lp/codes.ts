/**
 * The character codes the line protocol scanners read. Scanning a typed array is about three
 * times faster than `String.charCodeAt` here, so the parser reads codes from `codes` and
 * slices names and values from the string. Invariant: `codes[i]` is `s.charCodeAt(i)` for the
 * string being parsed: for an ASCII body the body bytes themselves, otherwise its UTF-16 units.
 */
import { isAscii } from 'node:buffer'

export let codes: Uint8Array | Uint16Array = new Uint8Array(0)

export function setCodes(s: string, bytes?: Uint8Array): void {
  if (bytes && bytes.length === s.length && isAscii(bytes)) {
    codes = bytes
    return
  }
  const units = new Uint16Array(s.length)
  for (let i = 0; i < s.length; i++) units[i] = s.charCodeAt(i)
  codes = units
}

/** Drops the reference to the last body, so a worker does not keep it alive between tasks. */
export function clearCodes(): void {
  codes = new Uint8Array(0)
}
