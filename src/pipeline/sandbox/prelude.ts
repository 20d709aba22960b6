/**
 * JavaScript evaluated in every fresh sandbox context before any script. It defines the
 * library as thin stubs over the single host bridge, `_` (the `message` key), `key()`,
 * `exit()` and `use()`, then hardens the context: library names cannot be reassigned and the
 * built-in prototypes are frozen, so one script cannot change what another one sees.
 *
 * BigInt (integers past 2^53, exact as the reference's int64) writes itself to JSON as
 * `{"$big": "<digits>"}`, the host's carrier, and the carrier is read back into a BigInt.
 *
 * `$run(id, n, batch)` runs a script: once for the whole batch (batch mode: each library call
 * applies to every live point), or once per point with `$i` selecting it (point mode).
 */
import { OPERATORS, VALUE_FUNCTIONS } from './operators.js'

export function prelude(names: string[]): string {
  return `(() => {
  'use strict'
  const g = globalThis
  const host = g.$host
  delete g.$host
  const EXIT = Object.freeze({ exit: true })
  const scripts = Object.create(null)
  let $i = -1
  let current = ''
  const big = (_k, v) => (v !== null && typeof v === 'object' && typeof v.$big === 'string' ? BigInt(v.$big) : v)
  const unwrap = (r) => (r !== null && typeof r === 'object' && typeof r.$json === 'string' ? JSON.parse(r.$json, r.$json.includes('"$big"') ? big : undefined) : r)
  Object.defineProperty(BigInt.prototype, 'toJSON', { value: function () { return { $big: this.toString() } } })
  const names = ${JSON.stringify(names)}
  const define = (name, value) =>
    Object.defineProperty(g, name, { value, writable: false, configurable: false, enumerable: false })
  names.forEach((name, n) => define(name, (...a) => unwrap(host(n, a, $i))))
  define('_', Object.freeze({ $k: 'message' }))
  define('$truthy', (v) => Array.isArray(v) ? v.length > 0 : v !== null && typeof v === 'object' ? Object.keys(v).length > 0 : !!v)
  define('$iter', (v) => Array.isArray(v) ? v : v !== null && typeof v === 'object' ? Object.keys(v) : typeof v === 'string' ? [...v] : [])
  ${OPERATORS}
  ${VALUE_FUNCTIONS}
  define('key', (name, ...v) => Object.freeze(v.length ? { $k: String(name), v: v[0] } : { $k: String(name) }))
  define('exit', () => { throw EXIT })
  define('use', (name) => {
    const id = current.slice(0, current.indexOf('/') + 1) + String(name).replace(/\\.(p|js)$/, '')
    const f = scripts[id]
    if (!f) throw new Error('use: no script ' + String(name))
    f()
  })
  define('$define', (id, f) => { scripts[id] = f })
  define('$run', (id, n, batch) => {
    const f = scripts[id]
    current = id
    if (batch) {
      $i = -1
      try { f() } catch (e) { if (e !== EXIT) throw e }
      return
    }
    const errors = []
    for (let i = 0; i < n; i++) {
      $i = i
      try { f() } catch (e) {
        if (e === EXIT) continue
        errors.push(i, e && e.stack ? String(e) + '\\n' + e.stack : String(e))
      }
    }
    $i = -1
    return errors.length ? JSON.stringify(errors) : undefined
  })
  for (const o of [Object, Array, Function, String, Number, Boolean, BigInt, RegExp, Date, Error, Map, Set, Promise, JSON, Math, Symbol])
    { Object.freeze(o); if (o.prototype) Object.freeze(o.prototype) }
})()`
}
