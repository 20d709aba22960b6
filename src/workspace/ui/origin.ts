/**
 * Which UI requests may change state. `SameSite=Strict` keeps the cookie from other sites but
 * not from another port of the same host, and `Sec-Fetch-Site` calls that `same-site`; so a
 * change (any method but GET and HEAD) must also name the workspace itself as its origin:
 * `Origin` (or `Referer` when a browser sends no Origin) equal to the scheme, host and port the
 * request reached (its Host header). A request naming neither is refused unless the browser
 * marks it `Sec-Fetch-Site: same-origin`: browsers name one or the other on every POST, and
 * only a browser carries the session. Data changes under `/ui/api/` must
 * also be `application/json`, which a page on another origin cannot send without a CORS
 * preflight this service never grants (`no-cors` bodies are `text/plain` or forms).
 */
import type { Context } from 'hono'
import { FerryError } from '../../errors.js'

const SAFE = new Set(['GET', 'HEAD'])

/** The origin the request reached: its scheme, and its Host header (else the URL's host). */
function ownOrigin(c: Context): string | null {
  const url = new URL(c.req.url)
  const host = c.req.header('host') ?? url.host
  try {
    return new URL(`${url.protocol}//${host}`).origin
  } catch {
    return null
  }
}

/** The origin the browser says the request came from: Origin, else Referer's; null if neither. */
function claimedOrigin(c: Context): string | null {
  const claim = c.req.header('origin') ?? c.req.header('referer')
  if (!claim || claim === 'null') return null
  try {
    return new URL(claim).origin
  } catch {
    return null
  }
}

/** Throws unless a state change comes from the UI's own origin (and, for data, as JSON). */
export function checkChange(c: Context): void {
  if (SAFE.has(c.req.method)) return
  if (c.req.header('sec-fetch-site') === 'cross-site')
    throw new FerryError('crossOriginRefused', 'cross-site requests are refused')
  const own = ownOrigin(c)
  const claimed = claimedOrigin(c)
  // A browser that names no origin still says where the request came from: Sec-Fetch-Site is
  // set by the browser alone, and only a browser's request carries the session.
  const sameOrigin = claimed === null && c.req.header('sec-fetch-site') === 'same-origin'
  if (!own || (claimed !== own && !sameOrigin))
    throw new FerryError(
      'crossOriginRefused',
      `changes are accepted only from the UI's own origin (${own ?? 'unknown'}), not ${claimed ?? 'an unnamed one'}`,
    )
  if (!c.req.path.startsWith('/ui/api/')) return
  const type = (c.req.header('content-type') ?? '').split(';')[0].trim().toLowerCase()
  if (type !== 'application/json')
    throw new FerryError('unsupportedMediaType', 'UI data changes must be application/json')
}
