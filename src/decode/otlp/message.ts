/**
 * A span's `message` field: the span as OTLP/JSON without what its point already carries (the
 * reference's cleanSpan), compact, with ids in hex. Its text is `JSON.stringify` of the
 * members in OTLP/JSON's order; the attributes, which nearly every span has, are written as
 * text directly instead of as objects first (attrs.ts `jsonAttrsText`, the same text).
 */
import { hexOf, jsonAttrs, jsonAttrsText } from './attrs.js'
import type { KeyValue, Span } from './model.js'

/**
 * The span as OTLP/JSON without what the point already carries (the reference's cleanSpan):
 * `JSON.stringify` of its members in order, the attributes (what most spans have) written as
 * text directly and the rest, when there is any, by JSON.stringify.
 */
export function messageOf(span: Span, attrs: KeyValue[], events: Span['events']): string {
  let head = span.traceState ? `"traceState":${JSON.stringify(span.traceState)}` : ''
  if (attrs.length) head += `${head ? ',' : ''}"attributes":${jsonAttrsText(attrs)}`
  const rest = JSON.stringify(messageRest(span, events))
  if (rest === '{}') return `{${head}}`
  return head ? `{${head},${rest.slice(1)}` : rest
}

function messageRest(span: Span, events: Span['events']): Record<string, unknown> {
  const m: Record<string, unknown> = {}
  if (span.droppedAttributes) m.droppedAttributesCount = span.droppedAttributes
  if (events.length)
    m.events = events.map((e) => ({
      timeUnixNano: String(e.time),
      name: e.name,
      ...(e.attributes.length ? { attributes: jsonAttrs(e.attributes) } : {}),
    }))
  if (span.droppedEvents) m.droppedEventsCount = span.droppedEvents
  if (span.links.length)
    m.links = span.links.map((l) => ({
      traceId: hexOf(l.traceId),
      spanId: hexOf(l.spanId),
      ...(l.traceState ? { traceState: l.traceState } : {}),
      ...(l.attributes.length ? { attributes: jsonAttrs(l.attributes) } : {}),
    }))
  if (span.droppedLinks) m.droppedLinksCount = span.droppedLinks
  if (span.flags) m.flags = span.flags
  return m
}
