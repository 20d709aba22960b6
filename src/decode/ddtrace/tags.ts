/**
 * Which span meta keys become keys of the point, the reference's way: the public keys below
 * always (under their names here), `customer_tags` keys and `reg:` patterns too (with "." as
 * "_"). Such a value is a tag, or a string field when longer than 1024 characters, and leaves
 * the span's message. `runtime-id` becomes the tags runtime_id and runtime-id; a span with
 * `db.type` gets `db_host` from `peer.hostname`. Metrics named by `customer_tags` become float
 * fields (the reference keeps metrics in the message only).
 */
import type { DdSpan } from './model.js'

const PUBLIC: Record<string, string> = {
  'http.url': 'http_url',
  'http.hostname': 'http_hostname',
  'http.route': 'http_route',
  'http.status_code': 'http_status_code',
  'http.method': 'http_method',
  'http.client_ip': 'http_client_ip',
  'sampling.priority': 'sampling_priority',
  'span.kind': 'span_kind',
  error: 'error',
  'runtime.name': 'runtime_name',
  'dd.version': 'dd_version',
  'dd.env': 'dd_env',
  'error.message': 'error_message',
  'error.stack': 'error_stack',
  'error.type': 'error_type',
  'system.pid': 'pid',
  'error.msg': 'error_message',
  project: 'project',
  version: 'version',
  env: 'env',
  host: 'host',
  pod_name: 'pod_name',
  pod_namespace: 'pod_namespace',
  '_dd.base_service': 'base_service',
  'db.type': 'db_system',
  'db.instance': 'db_name',
  'db.operation': 'db_operation',
  'out.host': 'out_host',
}

/** Longer meta values become string fields rather than tags. */
const TAG_MAX = 1024

export interface MetaSelector {
  named: Map<string, string>
  custom: Set<string>
  patterns: RegExp[]
}

export function metaSelector(customerTags: readonly string[]): MetaSelector {
  const named = new Map(Object.entries(PUBLIC))
  const custom = new Set<string>()
  const patterns: RegExp[] = []
  for (const t of customerTags)
    if (t.startsWith('reg:')) patterns.push(new RegExp(t.slice(4)))
    else {
      if (!named.has(t)) named.set(t, t.replaceAll('.', '_'))
      custom.add(t)
    }
  return { named, custom, patterns }
}

function keyOf(k: string, s: MetaSelector): string {
  const named = s.named.get(k)
  if (named !== undefined) return named
  return s.patterns.some((re) => re.test(k)) ? k.replaceAll('.', '_') : ''
}

export interface Extracted {
  tags: [string, string][]
  fields: [string, string | number][]
  /** Meta and metrics left for the message. */
  meta: Map<string, string>
  metrics: Map<string, number>
}

export function extract(span: DdSpan, s: MetaSelector): Extracted {
  const out: Extracted = { tags: [], fields: [], meta: new Map(), metrics: new Map() }
  for (const [k, v] of span.meta) {
    if (k === 'runtime-id') {
      out.tags.push(['runtime_id', v], ['runtime-id', v])
      continue
    }
    if (k === 'db.type' && span.meta.has('peer.hostname'))
      out.tags.push(['db_host', span.meta.get('peer.hostname') ?? ''])
    const key = keyOf(k, s)
    if (key === '') out.meta.set(k, v)
    else if (v.length > TAG_MAX) out.fields.push([key, v])
    else out.tags.push([key, v])
  }
  for (const [k, v] of span.metrics)
    if (s.custom.has(k) || s.patterns.some((re) => re.test(k)))
      out.fields.push([k.replaceAll('.', '_'), v])
    else out.metrics.set(k, v)
  return out
}
