/**
 * GJSON paths (the syntax of the reference's `gjson()`), read straight off the JSON text:
 * nothing is parsed but the values on the path, and an object or array comes back as its
 * original text (original order and spacing), as the reference returns it.
 *
 * Supported: `a.b.c`, array indexes (`friends.1.name`), `\.` escapes, `*`/`?` wildcards in
 * keys (first match), `#` (array length), `#.key` (the key of every element, as a JSON
 * array), `|` as a separator. Queries `#(...)` and `@modifiers` find nothing.
 *
 * Invariant: scanning is linear in the text per path component and never recurses, so a
 * deeply nested document costs no stack.
 */
export type GResult =
  | { kind: 'string'; value: string }
  | { kind: 'number'; value: number }
  | { kind: 'bool'; value: boolean }
  | { kind: 'null' }
  | { kind: 'json'; value: string }

const ws = (s: string, i: number) => {
  while (i < s.length && (s[i] === ' ' || s[i] === '\n' || s[i] === '\r' || s[i] === '\t')) i++
  return i
}

function stringEnd(s: string, i: number): number {
  for (i++; i < s.length; i++) {
    if (s[i] === '\\') i++
    else if (s[i] === '"') return i + 1
  }
  return -1
}

/** Index just past the value starting at `i` (after whitespace), or -1 when malformed. */
function valueEnd(s: string, i: number): number {
  if (s[i] === '"') return stringEnd(s, i)
  if (s[i] !== '{' && s[i] !== '[') {
    const m = /^(?:-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null)/.exec(s.slice(i, i + 400))
    return m ? i + m[0].length : -1
  }
  let depth = 0
  for (; i < s.length; i++) {
    const c = s[i]
    if (c === '"') {
      i = stringEnd(s, i) - 1
      if (i < 0) return -1
    } else if (c === '{' || c === '[') depth++
    else if (c === '}' || c === ']') if (--depth === 0) return i + 1
  }
  return -1
}

/** Members of the object or elements of the array at `i`: [key, start, end]. */
function* children(s: string, i: number): Generator<[string, number, number]> {
  const obj = s[i] === '{'
  let n = 0
  i = ws(s, i + 1)
  while (i < s.length && s[i] !== '}' && s[i] !== ']') {
    let key = String(n++)
    if (obj) {
      const ke = stringEnd(s, i)
      if (ke < 0) return
      key = JSON.parse(s.slice(i, ke)) as string
      i = ws(s, ws(s, ke) + 1)
    }
    const end = valueEnd(s, i)
    if (end < 0) return
    yield [key, i, end]
    i = ws(s, end)
    if (s[i] === ',') i = ws(s, i + 1)
  }
}

function parts(path: string): string[] {
  const out = ['']
  for (let i = 0; i < path.length; i++) {
    const c = path[i]
    if (c === '\\' && i + 1 < path.length) out[out.length - 1] += path[++i]
    else if (c === '.' || c === '|') out.push('')
    else out[out.length - 1] += c
  }
  return out
}

const glob = (p: string) =>
  new RegExp(
    `^${p
      .replace(/[.+^${}()|[\]\\]/g, '\\$&')
      .replace(/\*/g, '.*')
      .replace(/\?/g, '.')}$`,
  )

/** [start, end) of the value at `path` inside the value at [start, end), or null. */
function find(s: string, start: number, ps: string[]): [number, number] | string | null {
  let at = start
  for (let k = 0; k < ps.length; k++) {
    const p = ps[k]
    if (s[at] !== '{' && s[at] !== '[') return null
    if (p === '#' && s[at] === '[') {
      const all = [...children(s, at)]
      if (k === ps.length - 1) return String(all.length)
      const rest = ps.slice(k + 1)
      const got = all.map(([, a]) => find(s, a, rest)).filter((x) => x !== null)
      return `[${got.map((g) => (typeof g === 'string' ? g : s.slice(g[0], g[1]))).join(',')}]`
    }
    const re = /[*?]/.test(p) ? glob(p) : null
    let hit: [number, number] | null = null
    for (const [key, a, b] of children(s, at))
      if (re ? re.test(key) : key === p) {
        hit = [a, b]
        break
      }
    if (!hit) return null
    at = hit[0]
    if (k === ps.length - 1) return hit
  }
  return null
}

export function gjsonGet(text: string, path: string): GResult | null {
  const s = text
  const start = ws(s, 0)
  const end = valueEnd(s, start)
  if (end < 0 || path === '') return null
  const r = find(s, start, parts(path))
  if (r === null) return null
  const raw = typeof r === 'string' ? r : s.slice(r[0], r[1])
  if (raw[0] === '"') return { kind: 'string', value: JSON.parse(raw) as string }
  if (raw[0] === '{' || raw[0] === '[') return { kind: 'json', value: raw }
  if (raw === 'true' || raw === 'false') return { kind: 'bool', value: raw === 'true' }
  if (raw === 'null') return { kind: 'null' }
  return { kind: 'number', value: Number(raw) }
}
