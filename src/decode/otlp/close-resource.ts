/**
 * `[otlp.close_resource]`, the reference's filter: service name → patterns of span names
 * (resources) whose traces are not kept. A resource group of an export (the reference's unit of
 * a trace here) is left out whole when any of its spans has a matching resource under its
 * service, or under `"*"` for every service; the service is the span's final `service` tag
 * (after `split_service_name` and `[otlp.tags]`), as the reference reads it off the point.
 * Patterns are unanchored regular expressions, as Go's `MatchString`; the left-out spans are
 * counted. Error traces are not spared: the reference runs this filter before the sampler.
 *
 * The rules travel to the decode worker as plain data and are compiled there once per request.
 */
import type { Point } from '../../shared/point.js'

/** `[service, patterns]` pairs, as the config table holds them. */
export type CloseResourceRules = [string, string[]][]

export interface CloseResource {
  service: string
  patterns: RegExp[]
}

export function compileCloseResource(rules: CloseResourceRules): CloseResource[] {
  return rules.map(([service, list]) => ({ service, patterns: list.map((s) => new RegExp(s)) }))
}

function text(p: Point, key: string, tag: boolean): string {
  if (tag) return p.tags.find((t) => t.key === key)?.value ?? ''
  const f = p.fields.find((x) => x.key === key)
  return typeof f?.value === 'string' ? f.value : ''
}

/** Whether one span closes its group. */
function closes(p: Point, rules: readonly CloseResource[]): boolean {
  const service = text(p, 'service', true)
  const resource = text(p, 'resource', false)
  return rules.some(
    (r) =>
      (r.service === '*' || r.service === service) && r.patterns.some((re) => re.test(resource)),
  )
}

/** Whether the spans of one resource group are left out. */
export function closedGroup(points: readonly Point[], rules: readonly CloseResource[]): boolean {
  return rules.length > 0 && points.some((p) => closes(p, rules))
}
