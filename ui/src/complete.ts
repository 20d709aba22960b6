/**
 * What the query box can complete at the cursor, from DQL's shape: the source (`M::cpu`) at
 * the start, a field (or an aggregate) inside `:( … )`, a field or tag inside `{ … }`, a tag
 * after `BY`. Names come from the workspace catalog (catalog.ts); this module only reads the
 * text, so the unit tests run it under Node.
 */
export type CompleteKind = 'source' | 'field' | 'filter' | 'tag'

export interface CompleteContext {
  kind: CompleteKind
  /** Where the word being completed starts; it ends at the cursor. */
  from: number
  prefix: string
  /** The query's source, `M::cpu`, when it names one. */
  source: string | null
}

const SOURCE = /^\s*([A-Za-z]+::(?:`[^`]*`|[\w.-]+))/
export const AGGREGATES = ['avg', 'max', 'min', 'sum', 'count', 'last', 'first', 'distinct']

/** The innermost bracket still open before `pos` (`(`, `{` or `[`), or null. */
function openBracket(t: string): string | null {
  const stack: string[] = []
  let quote: string | null = null
  for (const ch of t) {
    if (quote) quote = ch === quote ? null : quote
    else if (ch === "'" || ch === '"' || ch === '`') quote = ch
    else if ('({['.includes(ch)) stack.push(ch)
    else if (')}]'.includes(ch)) stack.pop()
  }
  return quote ? quote : (stack.at(-1) ?? null)
}

/** The completion context at `pos`, or null where nothing is offered (inside a string). */
export function contextAt(text: string, pos: number): CompleteContext | null {
  const t = text.slice(0, pos)
  const source = SOURCE.exec(text)?.[1] ?? null
  const head = /^\s*([A-Za-z]*(?:::[\w.-]*)?)$/.exec(t)
  if (head) return { kind: 'source', from: t.length - head[1].length, prefix: head[1], source }
  const word = /[A-Za-z_][\w]*$/.exec(t)?.[0] ?? ''
  const from = pos - word.length
  const before = t.slice(0, from)
  const open = openBracket(t)
  if (open === '(' && /:\(/.test(t)) return named('field', before, /[(,]\s*$/, word, from, source)
  if (open === '{')
    return named('filter', before, /([{,(]|\b(AND|OR|NOT))\s*$/i, word, from, source)
  if (open === null && /\bBY\s+([\w]+\s*,\s*)*$/i.test(before))
    return { kind: 'tag', from, prefix: word, source }
  return null
}

/** A context where a name may start: after `lead`, or mid-word. */
function named(
  kind: CompleteKind,
  before: string,
  lead: RegExp,
  prefix: string,
  from: number,
  source: string | null,
): CompleteContext | null {
  return lead.test(before) || (prefix && /\(\s*$/.test(before))
    ? { kind, from, prefix, source }
    : null
}

/** Names matching the prefix: those starting with it first, then those containing it; at most `max`. */
export function matches(names: string[], prefix: string, max = 12): string[] {
  const p = prefix.toLowerCase()
  const starts = names.filter((n) => n.toLowerCase().startsWith(p))
  const inside = p
    ? names.filter((n) => !n.toLowerCase().startsWith(p) && n.toLowerCase().includes(p))
    : []
  return [...starts, ...inside].filter((n) => n !== prefix).slice(0, max)
}

/**
 * The text with the word at the cursor replaced by `choice`, and where the cursor goes: a
 * source gets `:()` with the cursor inside (its fields are offered next), an aggregate its `(`.
 */
export function applyChoice(
  text: string,
  pos: number,
  ctx: CompleteContext,
  choice: string,
): { text: string; pos: number } {
  const after = text.slice(pos).replace(/^[\w.-]*/, '')
  let insert = choice
  let back = 0
  if (ctx.kind === 'source' && !after.startsWith(':')) [insert, back] = [`${choice}:()`, 1]
  else if (AGGREGATES.includes(choice) && ctx.kind === 'field' && !after.startsWith('('))
    [insert, back] = [`${choice}()`, 1]
  const out = text.slice(0, ctx.from) + insert + after
  return { text: out, pos: ctx.from + insert.length - back }
}
