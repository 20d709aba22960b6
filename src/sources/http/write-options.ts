/**
 * Query parameters of `POST /v1/write/:category` (spec 4.1). Bool parameters count by
 * presence: `?dry`, `?dry=` and `?dry=false` all switch dry mode on (spec rule 1).
 */
import { FerryError } from '../../errors.js'
import type { EchoFormat } from '../../decode/codec/echo.js'
import { parsePrecision, type Precision } from '../../decode/precision.js'

export interface WriteOptions {
  dry: boolean
  echo: EchoFormat | null
  encoding: string
  globalElectionTags: boolean
  ignoreGlobalHostTags: boolean
  input: string
  precision: Precision | null
  /** The script for every point of the body (`pipeline_source`, else `source`); `-`: none. */
  source: string | null
  storageIndex: string | null
  strict: boolean
}

const ECHO_FORMATS = ['lp', 'json', 'pbjson']

function echoOf(q: URLSearchParams): EchoFormat | null {
  const echo = q.get('echo')
  if (echo !== null && echo !== '') {
    if (!ECHO_FORMATS.includes(echo))
      throw new FerryError(
        'invalidEcho',
        `echo must be one of lp, json, pbjson; got ${JSON.stringify(echo)}`,
      )
    return echo as EchoFormat
  }
  if (q.has('echo_line_proto')) return 'lp'
  if (q.has('echo_json')) return 'json'
  return null
}

function precisionOf(q: URLSearchParams): Precision | null {
  const raw = q.get('precision')
  if (raw === null || raw === '') return null
  const p = parsePrecision(raw)
  if (!p)
    throw new FerryError(
      'invalidPrecision',
      `precision must be one of n, u, ms, s, m, h; got ${JSON.stringify(raw)}`,
    )
  return p
}

function storageIndexOf(q: URLSearchParams): string | null {
  const raw = q.get('storage_index')
  if (raw === null || raw === '') return null
  if (!/^[a-z][a-z0-9_]*$/.test(raw)) {
    throw new FerryError(
      'invalidStorageIndex',
      `storage_index ${JSON.stringify(raw)} must start with a letter and hold only lowercase letters, digits and _`,
    )
  }
  return raw
}

export function parseWriteOptions(
  q: URLSearchParams,
  contentEncoding: string | undefined,
): WriteOptions {
  return {
    dry: q.has('dry'),
    echo: echoOf(q),
    encoding: q.get('encoding') || contentEncoding || '',
    globalElectionTags: q.has('global_election_tags'),
    ignoreGlobalHostTags: q.has('ignore_global_host_tags') || q.has('ignore_global_tags'),
    input: q.get('input') || 'agent-http',
    precision: precisionOf(q),
    source: q.get('pipeline_source') || q.get('source') || null,
    storageIndex: storageIndexOf(q),
    strict: q.has('strict'),
  }
}
