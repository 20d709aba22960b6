/** Extraction: grok (host-side regular expressions), add_pattern, json, user_agent. */
import { FerryError } from '../../errors.js'
import { compileGrok, convert, type Grok } from '../grok/grok.js'
import type { LibFn } from './lib-fn.js'
import { keyArg, strArg, type CallCtx } from './context.js'
import { setKey, type PlPoint, type PlValue } from './pl-point.js'
import { userAgentFields } from './user-agent.js'
import { parseJson } from './json-text.js'

function grokOf(c: CallCtx, pattern: string): Grok {
  const s = c.scope
  // Batch mode calls with the same pattern for every point: skip the keyed lookup.
  const last = s.lastGrok
  if (last && last.pattern === pattern && last.version === s.patternsVersion) return last.grok
  const g = grokKeyed(c, pattern)
  s.lastGrok = { pattern, version: s.patternsVersion, grok: g }
  return g
}

function grokKeyed(c: CallCtx, pattern: string): Grok {
  const s = c.scope
  const cacheKey = `${s.patternsVersion}\u0000${pattern}`
  let g = s.grok.get(cacheKey)
  if (!g) {
    g = compileGrok(pattern, s.lookup)
    if (s.grok.size > 1000) s.grok.clear()
    s.grok.set(cacheKey, g)
  }
  return g
}

function grok(c: CallCtx, p: PlPoint, a: unknown[]): boolean {
  const input = strArg(p, a[0])
  if (input === null) return false
  const g = grokOf(c, String(a[1]))
  const m = g.re.groups(input)
  if (m === null) return false
  const trim = a[2] !== false
  const caps = g.captures
  for (let i = 0; i < caps.length; i++) {
    const cap = caps[i]
    const raw = m[cap.index]
    // A name captured twice keeps the alternative that took part in the match.
    if (raw === undefined && g.duplicates && p.fields.has(cap.name) && i > g.firstOf.get(cap.name)!)
      continue
    const text = raw === undefined ? '' : trim ? raw.trim() : raw
    setKey(p, cap.name, convert(text, cap.type), cap.type === 'float')
  }
  return true
}

function addPattern(c: CallCtx, a: unknown[]): void {
  const name = String(a[0])
  const def = String(a[1])
  const s = c.scope
  if (s.patterns.get(name) === def) return
  s.patterns.set(name, def)
  s.patternsVersion++
}

/** `a.b[0].c` over parsed JSON. */
function walk(root: unknown, path: string): unknown {
  let cur = root
  for (const part of path.match(/[^.[\]]+/g) ?? []) {
    if (cur === null || typeof cur !== 'object') return undefined
    cur = (cur as Record<string, unknown>)[part]
  }
  return cur
}

function json(p: PlPoint, a: unknown[]): boolean {
  const text = strArg(p, a[0])
  if (text === null) return false
  let doc: unknown
  try {
    doc = parseJson(text)
  } catch {
    return false
  }
  const path = keyArg(a[1], 'json')
  const v = walk(doc, path)
  if (v === undefined) return false
  const key = a.length > 2 && a[2] !== null && a[2] !== undefined ? keyArg(a[2], 'json') : path
  const value = typeof v === 'string' && a[3] !== false ? v.trim() : v
  setKey(p, key, value as PlValue, typeof value === 'number' && !Number.isInteger(value))
  return true
}

function userAgent(p: PlPoint, a: unknown[]): boolean {
  const text = strArg(p, { $k: keyArg(a[0], 'user_agent') })
  if (text === null || text === '') return false
  for (const [k, v] of userAgentFields(text)) setKey(p, k, v)
  return true
}

export const EXTRACT_FNS: Record<string, LibFn> = {
  grok: { params: ['input', 'pattern', 'trim_space'], run: (c, p, a) => grok(c, p, a) },
  add_pattern: { params: ['name', 'pattern'], run: (c, _p, a) => addPattern(c, a) },
  json: {
    params: ['input', 'json_path', 'newkey', 'trim_space', 'delete_after_extract'],
    run: (_c, p, a) => json(p, a),
  },
  user_agent: { params: ['key'], run: (_c, p, a) => userAgent(p, a) },
  // The reference's load_json: the parsed value, or null when the text is not JSON.
  load_json: { params: ['val'], run: (_c, p, a) => loadJson(strArg(p, a[0])) },
}

function loadJson(text: string | null): unknown {
  if (text === null) return null
  try {
    return parseJson(text)
  } catch {
    return null
  }
}

export function checkPattern(c: CallCtx, pattern: string): void {
  try {
    grokOf(c, pattern)
  } catch (e) {
    throw new FerryError('badRequest', (e as Error).message)
  }
}
