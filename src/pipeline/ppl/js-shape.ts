/**
 * Recognises a JavaScript script that is only library calls with literal or key arguments
 * (`grok(_, "...")`, `cast("status_code", "int")`, `group_in("status", ["warn"], "warning")`):
 * such a script does the same thing to every point and may run in batch mode. Anything this
 * does not recognise simply runs per point; the recogniser never changes what a script means.
 */
import { isLibraryFunction } from '../lib/registry.js'

const TOKEN =
  /\s+|\/\/[^\n]*|\/\*[\s\S]*?\*\/|"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|`(?:[^`\\$]|\\.)*`|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|[A-Za-z_$][\w$]*|[()[\]{},:;]/y

function tokens(src: string): string[] | null {
  const out: string[] = []
  TOKEN.lastIndex = 0
  while (TOKEN.lastIndex < src.length) {
    const at = TOKEN.lastIndex
    const m = TOKEN.exec(src)
    if (!m || TOKEN.lastIndex === at) return null
    const t = m[0]
    if (!/^\s/.test(t) && !t.startsWith('//') && !t.startsWith('/*')) out.push(t)
  }
  return out
}

const isString = (t: string) => /^["'`]/.test(t)
const isLiteral = (t: string) =>
  isString(t) || /^-?\d/.test(t) || ['true', 'false', 'null', 'undefined'].includes(t)

class Shape {
  i = 0
  uses: string[] = []
  constructor(readonly t: string[]) {}
  eat(x: string): boolean {
    if (this.t[this.i] !== x) return false
    this.i++
    return true
  }
  list(close: string, item: () => boolean): boolean {
    while (!this.eat(close)) {
      if (!item()) return false
      if (!this.eat(',') && this.t[this.i] !== close) return false
    }
    return true
  }
  value(nested: boolean): boolean {
    const x = this.t[this.i++]
    if (x === undefined) return false
    if (isLiteral(x)) return true
    if (nested) return x === '[' ? this.list(']', () => this.value(true)) : false
    if (x === '_') return true
    if (x === 'key') return this.eat('(') && isString(this.t[this.i++] ?? '') && this.eat(')')
    if (x === '[') return this.list(']', () => this.value(true))
    if (x === '{')
      return this.list('}', () => {
        const k = this.t[this.i++] ?? ''
        return (isString(k) || /^[A-Za-z_$]/.test(k)) && this.eat(':') && this.value(true)
      })
    return false
  }
  statement(): boolean {
    const name = this.t[this.i++]
    if (!name || !isLibraryFunction(name) || !this.eat('(')) return false
    const first = this.t[this.i]
    if (!this.list(')', () => this.value(false))) return false
    if (name === 'use' && first && isString(first)) this.uses.push(first.slice(1, -1))
    return true
  }
}

export function jsShape(src: string): { straight: boolean; uses: string[] } {
  const t = tokens(src)
  if (!t) return { straight: false, uses: [] }
  const s = new Shape(t)
  while (s.i < t.length) {
    if (s.eat(';')) continue
    if (!s.statement()) return { straight: false, uses: [] }
  }
  return { straight: true, uses: s.uses }
}
