/** UTF-8 byte lengths and truncation at a character boundary, without encoding short strings. */
export function byteLength(s: string): number {
  // A string of n UTF-16 units has at most 3n bytes and at least n; most keys are ASCII.
  for (let i = 0; i < s.length; i++) {
    if (s.charCodeAt(i) > 0x7f) return Buffer.byteLength(s, 'utf8')
  }
  return s.length
}

/** The longest prefix of `s` whose UTF-8 form fits in `max` bytes. */
export function truncateUtf8(s: string, max: number): string {
  const bytes = Buffer.from(s, 'utf8')
  if (bytes.length <= max) return s
  let end = max
  // Step back over continuation bytes so no character is cut in half.
  while (end > 0 && (bytes[end] & 0xc0) === 0x80) end--
  return bytes.subarray(0, end).toString('utf8')
}
