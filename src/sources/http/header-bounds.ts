/**
 * A bound on the answer's headers. Some middleware echoes request headers (CORS echoes
 * `Origin` and `Access-Control-Request-Headers`); a client's oversized header must not come
 * back large enough to break the client reading the answer (Node clients refuse more than
 * 16 KiB of headers). Values over `MAX_VALUE` characters are removed, then the largest headers
 * until the total fits `MAX_TOTAL`.
 */
export const MAX_VALUE = 1024
export const MAX_TOTAL = 8 * 1024

/** Returns the names of the headers removed. */
export function boundHeaders(headers: Headers): string[] {
  const removed: string[] = []
  const sizes: [string, number][] = []
  let total = 0
  for (const [name, value] of headers) {
    if (value.length > MAX_VALUE) removed.push(name)
    else {
      sizes.push([name, name.length + value.length + 4])
      total += name.length + value.length + 4
    }
  }
  sizes.sort((a, b) => b[1] - a[1])
  for (const [name, size] of sizes) {
    if (total <= MAX_TOTAL) break
    removed.push(name)
    total -= size
  }
  for (const name of removed) headers.delete(name)
  return removed
}
