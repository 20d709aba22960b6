/**
 * The time part of a DQL statement, `[start:end:interval:rollup]`: each part may be empty;
 * start and end are durations before now (`15m`, `2d`), Unix milliseconds or `now`.
 */
import type { TimeExpr, TimePoint } from './ast.js'
import type { Cursor } from './cursor.js'
import { queryError, type Token } from './lexer.js'

function timePoint(tok: Token | null): TimePoint | null {
  if (!tok) return null
  if (tok.type === 'duration') return { relativeMs: tok.value! }
  if (tok.type === 'number' && Number.isInteger(tok.value)) return { absoluteMs: tok.value! }
  if (tok.type === 'ident' && tok.text.toLowerCase() === 'now') return { relativeMs: 0 }
  throw queryError(tok.pos, 'a time is a duration before now (15m, 2d) or Unix milliseconds')
}

function splitParts(c: Cursor): Token[][] {
  c.expect('[')
  const parts: Token[][] = [[]]
  while (!c.isPunct(']')) {
    const tok = c.next()
    if (tok.type === 'eof') c.fail('"]"')
    if (tok.type === 'punct' && (tok.text === ':' || tok.text === '::')) {
      parts.push([])
      if (tok.text === '::') parts.push([])
    } else parts[parts.length - 1].push(tok)
  }
  c.next()
  return parts
}

export function timeExpr(c: Cursor): TimeExpr {
  const parts = splitParts(c)
  if (parts.length > 4)
    throw queryError(
      parts[4][0]?.pos ?? c.peek().pos,
      'a time range has at most 4 parts: start:end:interval:rollup',
    )
  const [start, end, interval, rollup] = parts.map((p) => {
    if (p.length > 1) throw queryError(p[1].pos, 'expected ":" or "]" in the time range')
    return p[0] ?? null
  })
  if (rollup && rollup.type !== 'ident')
    throw queryError(rollup.pos, 'the rollup is a function name such as avg, last or rate')
  if (interval && interval.type !== 'duration')
    throw queryError(interval.pos, 'the interval must be a duration such as 1m')
  return {
    start: timePoint(start),
    end: timePoint(end),
    intervalMs: interval ? interval.value! : null,
    rollup: rollup ? { name: rollup.text, pos: rollup.pos } : null,
  }
}
