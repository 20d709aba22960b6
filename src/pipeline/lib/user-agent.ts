/**
 * `user_agent()`: the fields the reference adds, in its formats (browser, browserVer, engine,
 * engineVer, os, ua = platform, isMobile, isBot), e.g. `os` "Windows 7" for NT 6.1 and
 * "Intel Mac OS X 11_1_0" on a Mac. Results are cached: real traffic repeats its agents.
 *
 * Invariant: one cache per decode worker, at most `[pipeline] user_agent_cache_entries`
 * agent texts (one not used since the eviction scan last passed it leaves first: second
 * chance, close to least recently used); a cached answer is the parse's own.
 */
export interface UserAgent {
  isMobile: boolean
  isBot: boolean
  os: string
  browser: string
  browserVer: string
  engine: string
  engineVer: string
  ua: string
}

interface Section {
  name: string
  version: string
  comment: string[]
}

const WINDOWS: Record<string, string> = {
  '10.0': 'Windows 10',
  '6.3': 'Windows 8.1',
  '6.2': 'Windows 8',
  '6.1': 'Windows 7',
  '6.0': 'Windows Vista',
  '5.2': 'Windows XP x64 Edition',
  '5.1': 'Windows XP',
  '5.01': 'Windows 2000, Service Pack 1 (SP1)',
  '5.0': 'Windows 2000',
  '4.0': 'Windows NT 4.0',
}
const BOT = /bot|crawl|spider|slurp|facebookexternalhit|curl|wget|python-requests|httpclient/i
interface Cached {
  fields: [string, string | boolean][]
  /** Hit since the eviction scan last passed it (the second chance). */
  used: boolean
}

/** Parsed agents by text, oldest inserted first (a Map keeps insertion order). */
const cache = new Map<string, Cached>()
let maxEntries = 4096

/** Sets the cache's bound (`[pipeline] user_agent_cache_entries`); 0 turns it off. */
export function setUserAgentCacheLimit(n: number): void {
  maxEntries = Math.max(0, n)
  for (const k of cache.keys()) {
    if (cache.size <= maxEntries) break
    cache.delete(k)
  }
}

/**
 * Makes room for one entry: the oldest one not hit since it was last passed leaves; a hit one
 * is moved to the end with its mark cleared. Each pass clears a mark, so this ends within
 * one turn of the cache.
 */
function evictOne(): void {
  for (const [k, e] of cache) {
    cache.delete(k)
    if (!e.used) return
    e.used = false
    cache.set(k, e)
  }
}

function sections(ua: string): Section[] {
  const out: Section[] = []
  const re = /([^\s/()]+)(?:\/([^\s()]*))?\s*(?:\(([^)]*)\))?/g
  let m: RegExpExecArray | null
  while ((m = re.exec(ua)) !== null) {
    if (m[0] === '') {
      re.lastIndex++
      continue
    }
    out.push({
      name: m[1],
      version: m[2] ?? '',
      comment: m[3] ? m[3].split(';').map((s) => s.trim()) : [],
    })
  }
  return out
}

function osOf(platform: string, comment: string[]): string {
  for (const c of comment) {
    const nt = /^Windows NT (\d+\.\d+)/.exec(c)
    if (nt) return WINDOWS[nt[1]] ?? c
    if (/Mac OS X|Android|iPhone OS|CPU OS|Linux|CrOS|FreeBSD/.test(c)) return c
    if (/^Windows/.test(c)) return c
  }
  return platform
}

function browserOf(s: Section[], find: (n: string) => Section | undefined): [string, string] {
  const pick: [string, string][] = [
    ['Edg', 'Edge'],
    ['Edge', 'Edge'],
    ['OPR', 'Opera'],
    ['YaBrowser', 'YaBrowser'],
    ['SamsungBrowser', 'SamsungBrowser'],
    ['Chrome', 'Chrome'],
    ['CriOS', 'Chrome'],
    ['Firefox', 'Firefox'],
    ['FxiOS', 'Firefox'],
  ]
  for (const [token, name] of pick) {
    const sec = find(token)
    if (sec) return [name, sec.version]
  }
  if (find('Safari')) return ['Safari', find('Version')?.version ?? '']
  const ie = s[0]?.comment.find((c) => c.startsWith('MSIE '))
  if (ie) return ['Internet Explorer', ie.slice(5)]
  if (find('Trident'))
    return ['Internet Explorer', /rv:([\d.]+)/.exec(s[0].comment.join(';'))?.[1] ?? '']
  return [s[0]?.name ?? '', s[0]?.version ?? '']
}

function engineOf(find: (n: string) => Section | undefined): [string, string] {
  for (const e of ['AppleWebKit', 'Trident', 'Presto']) {
    const sec = find(e)
    if (sec) return [e, sec.version]
  }
  const gecko = find('Gecko')
  if (gecko) return ['Gecko', gecko.version]
  return ['', '']
}

function parse(text: string): UserAgent {
  const s = sections(text)
  const find = (n: string) => s.find((x) => x.name === n)
  const comment = s[0]?.comment ?? []
  const platform = comment[0] ? (comment[0].startsWith('Windows') ? 'Windows' : comment[0]) : ''
  const [browser, browserVer] = browserOf(s, find)
  const [engine, engineVer] = engineOf(find)
  const isBot = BOT.test(text) || (s.length > 0 && s[0].name !== 'Mozilla' && s[0].name !== 'Opera')
  const isMobile = /Mobile|iPhone|iPod|Android.*Mobile|Windows Phone|BlackBerry/.test(text)
  return {
    isMobile,
    isBot,
    os: osOf(platform, comment),
    browser,
    browserVer,
    engine,
    engineVer,
    ua: platform,
  }
}

/**
 * The fields as key/value pairs, cached: real traffic repeats its user agents. The bound is
 * kept by second chance (an approximation of least recently used): a hit only sets a mark,
 * cheaper than moving the entry on every line, and a marked entry survives the next
 * eviction that reaches it, so a rare agent cannot flush the common ones.
 */
export function userAgentFields(text: string): [string, string | boolean][] {
  const hit = cache.get(text)
  if (hit) {
    hit.used = true
    return hit.fields
  }
  const fields = Object.entries(parse(text)) as [string, string | boolean][]
  if (maxEntries === 0) return fields
  if (cache.size >= maxEntries) evictOne()
  cache.set(text, { fields, used: false })
  return fields
}
