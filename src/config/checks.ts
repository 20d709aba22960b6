/** Value checks shared by the schema sections: each returns an error message or undefined. */
export const listenCheck = (v: string) => {
  const m = /^(\[[0-9a-fA-F:]+\]|[A-Za-z0-9_.-]*):(\d{1,5})$/.exec(v)
  if (!m) return 'expected "host:port"'
  return Number(m[2]) > 65535 ? `port ${m[2]} out of range (0-65535)` : undefined
}
export const positive = (v: number) => (v > 0 ? undefined : 'must be greater than 0')
export const nonNegative = (v: number) => (v >= 0 ? undefined : 'must not be negative')

/** The reference's `cdn_map`: '' or a non-empty JSON array of `{domain, name, website}`. */
export const cdnMapCheck = (v: string) => {
  if (v.trim() === '') return undefined
  try {
    const list: unknown = JSON.parse(v)
    if (!Array.isArray(list) || list.length === 0) return 'expected a non-empty JSON array'
    return list.every((x) => typeof x?.domain === 'string' && typeof x?.name === 'string')
      ? undefined
      : 'every entry needs string "domain" and "name"'
  } catch (e) {
    return `not JSON: ${(e as Error).message}`
  }
}
