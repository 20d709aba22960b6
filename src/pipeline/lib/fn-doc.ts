/**
 * Functions that read a document held in a key: gjson (GJSON paths), xml (XPath), decode
 * (text in another encoding), sql_cover (obfuscated SQL). A document that does not parse, or
 * a path that finds nothing, leaves the point as it is (the reference's behaviour).
 *
 * XML is parsed by xmldom, which resolves no external entity, so a document cannot make the
 * host read a file or the network; compiled XPath expressions are kept per pattern (bounded).
 */
import type { LibFn } from './lib-fn.js'
import { keyArg, strArg, valArg } from './context.js'
import { getKey, setKey, type PlPoint } from './pl-point.js'
import { gjsonGet } from './gjson.js'
import { sqlCover } from './sql-cover.js'
import { parseXPath, parseXml, type XPathExpr } from './xpath-lib.js'

const MAX_XPATHS = 1000
const xpaths = new Map<string, XPathExpr | null>()

function compiled(expr: string): XPathExpr | null {
  let x = xpaths.get(expr)
  if (x === undefined) {
    try {
      x = parseXPath(expr)
    } catch {
      x = null
    }
    if (xpaths.size >= MAX_XPATHS) xpaths.clear()
    xpaths.set(expr, x)
  }
  return x
}

function gjson(p: PlPoint, a: unknown[]): void {
  const text = strArg(p, a[0])
  const path = valArg(p, a[1])
  if (text === null || typeof path !== 'string') return
  const target = a[2] === undefined || a[2] === null ? path : keyArg(a[2], 'gjson')
  const r = gjsonGet(text, path)
  if (r === null || r.kind === 'null') return
  // Numbers are floats, as the reference stores every JSON number.
  setKey(p, target, r.value, r.kind === 'number')
}

function xml(p: PlPoint, a: unknown[]): void {
  const text = strArg(p, a[0])
  const expr = compiled(String(valArg(p, a[1]) ?? ''))
  if (text === null || expr === null) return
  let node: unknown
  try {
    node = expr.select1({ node: parseXml(text) })
  } catch {
    return
  }
  if (node === undefined || node === null) return
  const n = node as { nodeValue?: string | null; textContent?: string | null }
  const value = typeof node === 'object' ? (n.textContent ?? n.nodeValue ?? '') : String(node)
  setKey(p, keyArg(a[2], 'xml'), value)
}

const ENCODINGS = new Set(['utf-16le', 'utf-16be', 'gbk', 'gb18030'])

/**
 * Bytes in another encoding. A bytes field decodes exactly; a string decodes only when every
 * character is one byte (text that came in undecoded); otherwise it is already text.
 */
function decode(p: PlPoint, a: unknown[]): void {
  const key = keyArg(a[0], 'decode')
  const v = getKey(p, key)
  const enc = valArg(p, a[1])
  if (typeof enc !== 'string' || !ENCODINGS.has(enc)) return
  let bytes: Uint8Array | null = null
  if (v instanceof Uint8Array) bytes = v
  else if (typeof v === 'string' && ![...v].some((c) => c.charCodeAt(0) > 0xff))
    bytes = Buffer.from(v, 'latin1')
  if (bytes === null) return
  setKey(p, key, new TextDecoder(enc).decode(bytes))
}

export const DOC_FNS: Record<string, LibFn> = {
  gjson: { params: ['input', 'json_path', 'newkey'], run: (_c, p, a) => gjson(p, a) },
  xml: { params: ['input', 'xpath_expr', 'key_name'], run: (_c, p, a) => xml(p, a) },
  decode: { params: ['text', 'text_encode'], run: (_c, p, a) => decode(p, a) },
  sql_cover: {
    params: ['sql_test'],
    run: (_c, p, a) => {
      const key = keyArg(a[0], 'sql_cover')
      const v = strArg(p, { $k: key })
      if (v !== null) setKey(p, key, sqlCover(v))
    },
  },
}
