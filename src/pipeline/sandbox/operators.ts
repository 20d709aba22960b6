/**
 * Platypus operators the sandbox runs itself (JavaScript source, evaluated by the prelude),
 * with the reference's semantics:
 * - `x in y`: substring of a string, key of a map, element of a list (deep equality); a
 *   non-string left side for a string or map, or any other right side, is a run error.
 * - `s[a:b:c]`: Python-style slices of strings and lists; negative bounds count from the end,
 *   absent bounds follow the step's direction; a zero or non-integer part is a run error.
 *   Strings are sliced by UTF-16 code unit (the reference slices bytes; the two agree on ASCII).
 * - `l[-1]`: a negative list index counts from the end.
 */
export const OPERATORS = `
  const isMap = (v) => v !== null && typeof v === 'object' && !Array.isArray(v)
  const same = (a, b) => {
    if (a === b) return true
    if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false
    if (Array.isArray(a) !== Array.isArray(b)) return false
    const ka = Object.keys(a)
    return ka.length === Object.keys(b).length && ka.every((k) => Object.hasOwn(b, k) && same(a[k], b[k]))
  }
  define('$in', (l, r) => {
    if (typeof r === 'string' || isMap(r)) {
      if (typeof l !== 'string') throw new TypeError('in: unsupported lhs data type')
      return typeof r === 'string' ? r.includes(l) : Object.hasOwn(r, l)
    }
    if (Array.isArray(r)) return r.some((x) => same(l, x))
    throw new TypeError('in: unsupported rhs data type')
  })
  const int = (v, what) => {
    if (v === null) return null
    if (!Number.isInteger(v)) throw new TypeError('slice: ' + what + ' type must be integer')
    return v
  }
  define('$slice', (o, a, b, c) => {
    if (typeof o !== 'string' && !Array.isArray(o)) throw new TypeError('slice: invalid obj type')
    const n = o.length
    const step = int(c, 'step') ?? 1
    if (step === 0) throw new TypeError('slice: step must be non-zero')
    let start = int(a, 'start')
    let end = int(b, 'end')
    start = start === null ? (step > 0 ? 0 : n - 1) : start < 0 ? n + start : start
    end = end === null ? (step > 0 ? n : -1) : end < 0 ? n + end : end
    const out = []
    if (step > 0) for (let i = Math.max(start, 0); i < Math.min(end, n); i += step) out.push(o[i])
    else for (let i = Math.min(start, n - 1); i > Math.max(end, -1); i += step) out.push(o[i])
    return typeof o === 'string' ? out.join('') : out
  })
  const i64 = (r) => {
    r = BigInt.asIntN(64, r)
    return Number.isSafeInteger(Number(r)) ? Number(r) : r
  }
  const arith = (plain, big) => (a, b) => {
    if (typeof a !== 'bigint' && typeof b !== 'bigint') return plain(a, b)
    if (typeof a === 'string' || typeof b === 'string') return plain(String(a), String(b))
    if (!Number.isInteger(a) && typeof a !== 'bigint') return plain(a, Number(b))
    if (!Number.isInteger(b) && typeof b !== 'bigint') return plain(Number(a), b)
    return i64(big(BigInt(a), BigInt(b)))
  }
  define('$add', arith((a, b) => a + b, (a, b) => a + b))
  define('$sub', arith((a, b) => a - b, (a, b) => a - b))
  define('$mul', arith((a, b) => a * b, (a, b) => a * b))
  define('$div', arith((a, b) => a / b, (a, b) => a / b))
  define('$mod', arith((a, b) => a % b, (a, b) => a % b))
  define('$get', (o, k) => {
    if (o === null || o === undefined) return null
    if (Array.isArray(o) && typeof k === 'number' && k < 0) k = o.length + k
    return o[k] ?? null
  })
`

/**
 * Library functions that work on script values in place, so they run in the sandbox: the
 * host only ever sees copies. `delete` is a JavaScript keyword; Platypus calls to it compile
 * to `$fn_delete`.
 */
export const VALUE_FUNCTIONS = `
  define('append', (arr, elem) => (Array.isArray(arr) ? [...arr, elem] : null))
  define('$fn_delete', (m, k) => {
    if (isMap(m) && typeof k === 'string') delete m[k]
  })
`
