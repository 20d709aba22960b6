/**
 * The XML parser and XPath engine behind `xml()`, behind a narrow typed facade. The packages'
 * own typings pull in the DOM library, which would retype `fetch`, `Headers` and friends for
 * the whole program, so they are loaded untyped here and described by what we use.
 */
import { createRequire } from 'node:module'

export interface XPathExpr {
  select1(ctx: { node: unknown }): unknown
}

const require = createRequire(import.meta.url)
const xpath = require('xpath') as { parse(expr: string): XPathExpr }
const xmldom = require('@xmldom/xmldom') as {
  DOMParser: new (o: { onError: () => void }) => { parseFromString(t: string, m: string): unknown }
}

export function parseXPath(expr: string): XPathExpr {
  return xpath.parse(expr)
}

/** Parses XML; throws on a fatal error. External entities are never resolved. */
export function parseXml(text: string): unknown {
  return new xmldom.DOMParser({ onError: () => undefined }).parseFromString(text, 'text/xml')
}
