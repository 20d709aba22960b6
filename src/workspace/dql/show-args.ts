/**
 * The arguments of a `show_*()` call: positional or named (`from=['cpu']`), each a string, a
 * list of strings or `re('..')` (a pattern, kept as `{ re }`).
 */
import { Cursor } from './cursor.js'
import { queryError, tokenize } from './lexer.js'

export type ShowValue = string | string[] | { re: string }

export interface ShowCall {
  name: string
  pos: number
  positional: ShowValue[]
  named: Record<string, ShowValue>
}

function value(c: Cursor): ShowValue {
  const tok = c.peek()
  if (tok.type === 'string' || tok.type === 'quoted' || tok.type === 'ident') {
    if (tok.type === 'ident' && tok.text.toLowerCase() === 're' && c.t[c.i + 1].text === '(') {
      c.i += 2
      const p = c.next()
      if (p.type !== 'string') throw queryError(p.pos, 'expected a quoted pattern in re()')
      c.expect(')')
      return { re: p.text }
    }
    return c.next().text
  }
  if (!c.isPunct('[')) c.fail('a string, a list of strings or re(..)')
  c.next()
  const list: string[] = []
  while (!c.isPunct(']')) {
    if (list.length) c.expect(',')
    const t = c.next()
    if (t.type !== 'string' && t.type !== 'quoted' && t.type !== 'ident')
      throw queryError(t.pos, 'expected a string in the list')
    list.push(t.text)
  }
  c.next()
  return list
}

export function parseShow(text: string): ShowCall {
  const c = new Cursor(tokenize(text))
  const head = c.peek()
  const call: ShowCall = { name: c.name().toLowerCase(), pos: head.pos, positional: [], named: {} }
  c.expect('(')
  while (!c.isPunct(')')) {
    if (call.positional.length || Object.keys(call.named).length) c.expect(',')
    if (c.peek().type === 'ident' && c.t[c.i + 1].text === '=') {
      const key = c.next().text.toLowerCase()
      c.next()
      call.named[key] = value(c)
    } else call.positional.push(value(c))
  }
  c.next()
  if (c.isPunct(';')) c.next()
  if (c.peek().type !== 'eof') c.fail('end of query')
  return call
}

/** A list argument as names, or a pattern as a test. */
export function nameFilter(v: ShowValue | undefined): (name: string) => boolean {
  if (v === undefined) return () => true
  if (typeof v === 'string') return (n) => n === v
  if (Array.isArray(v)) return (n) => v.includes(n)
  const re = new RegExp(`^(?:${v.re})$`)
  return (n) => re.test(n)
}
