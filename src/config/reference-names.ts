/**
 * Keys the reference agent's main config spells differently, accepted under its names: a
 * DataKit `datakit.conf` fragment such as `[http_api] rum_origin_ip_header = "..."` can be
 * pasted as it is. Each is moved to Ferry's key before validation; giving both is an error,
 * so that no one wonders which of the two applies. (The ENV_* names are the reference's.)
 */
const REFERENCE_NAMES: Readonly<Record<string, readonly [section: string, key: string]>> = {
  'http_api.rum_origin_ip_header': ['rum', 'origin_ip_header'],
  'http_api.rum_app_id_white_list': ['rum', 'app_id_white_list'],
}

type Table = Record<string, unknown>

const isTable = (v: unknown): v is Table => typeof v === 'object' && v !== null && !Array.isArray(v)

/** Rewrites a parsed config document in place; problems go to `errors`. */
export function acceptReferenceNames(doc: Table, file: string, errors: string[]): void {
  for (const [from, [section, key]] of Object.entries(REFERENCE_NAMES)) {
    const [fromSection, fromKey] = from.split('.')
    const body = doc[fromSection]
    if (!isTable(body) || !(fromKey in body)) continue
    const target = isTable(doc[section]) ? (doc[section] as Table) : (doc[section] = {})
    if (key in target)
      errors.push(`${file}:${from}: also set as ${section}.${key}; keep one of the two`)
    else target[key] = body[fromKey]
    delete body[fromKey]
  }
}
