/** `success_when` of an HTTP task over one response, with the reference's failure texts. */
import { formatDuration } from '../../shared/duration.js'
import { checkString, tally } from '../opts.js'
import type { PostScriptResult } from '../post-script.js'
import type { Verdict } from '../types.js'
import type { Exchange } from './exchange.js'
import type { HttpCheck } from './types.js'
import { parseGoDuration } from '../duration.js'

function headerValue(x: Exchange, name: string): string {
  const v = x.headers[name.toLowerCase()]
  return Array.isArray(v) ? (v[0] ?? '') : (v ?? '')
}

export function checkHttp(
  checks: HttpCheck[],
  x: Exchange | null,
  costNs: bigint,
  post: PostScriptResult | null,
): Verdict {
  const v: Verdict = { reasons: [], passed: false }
  if (!x) return { reasons: [], passed: true }
  const body = x.body.toString('utf8')
  for (const chk of checks) {
    for (const [k, opts] of Object.entries(chk.header ?? {}))
      for (const o of opts) tally(v, checkString(o, headerValue(x, k), `HTTP header \`${k}'`))
    for (const o of chk.body ?? []) tally(v, checkString(o, body, 'response body'))
    for (const o of chk.status_code ?? []) tally(v, checkString(o, String(x.status), 'HTTP status'))
    const limit = chk.response_time ? parseGoDuration(chk.response_time) : 0n
    if (limit > 0n && costNs > limit)
      v.reasons.push(
        `HTTP response time(${formatDuration(costNs)}) larger than ${formatDuration(limit)}`,
      )
    else if (limit > 0n) v.passed = true
  }
  if (post) tally(v, post.result.is_failed ? post.result.error_message : null)
  return v
}
