/**
 * Web stack resolution, the reference's algorithm: every `@ <url>:<line>:<col>` (one per line,
 * greedy to the last `:l:c`) becomes `@ <source>:<line>:<col>` from the map at
 * `<url path without leading slash>.map` in the zip; frames without a usable map stay as they
 * are, and the last failure is the reason reported.
 */
import type { ZipMaps } from './zip-maps.js'

const FRAME = /@ .*:\d+:\d+/g

export interface WebResult {
  stack: string
  /** '' when every frame with a map resolved; else the last failure. */
  reason: string
}

/** A URL's path as Go's url.Parse reads it: `scheme://authority` is cut off, never guessed. */
export function urlPath(src: string): string | null {
  let rest = src
  const scheme = /^[A-Za-z][A-Za-z0-9+.-]*:/.exec(rest)
  if (scheme) {
    rest = rest.slice(scheme[0].length)
    if (rest.startsWith('//')) {
      const slash = rest.indexOf('/', 2)
      rest = slash < 0 ? '' : rest.slice(slash)
    } else return null // opaque URLs (`data:`, `blob:x`) name no file
  }
  // Go's url.Parse refuses control characters and spaces.
  for (let i = 0; i < rest.length; i++) {
    const c = rest.charCodeAt(i)
    if (c <= 0x20 || c === 0x7f) return null
  }
  return rest.replace(/[?#].*$/s, '')
}

async function resolveFrame(
  frame: string,
  maps: ZipMaps,
  fail: (reason: string) => void,
): Promise<string> {
  const parts = frame.split(':')
  const line = Number(parts[parts.length - 2])
  const col = Number(parts[parts.length - 1])
  if (!Number.isInteger(line) || !Number.isInteger(col)) return frame
  const src = parts.slice(0, -2).join(':')
  const p = urlPath(src)
  if (p === null) {
    fail(`parse url failed, ${src}, invalid URL`)
    return frame
  }
  const key = `${p.replace(/^\/+/, '')}.map`
  if (!maps.has(key)) {
    fail(`parse sourcemap for [${frame}] failed: sourcemap file [${key}] is required`)
    return frame
  }
  const pos = await maps.lookup(key, line, col).catch(() => null)
  if (!pos) {
    fail(`fetch original source information failed, make sure sourcemap file [${key}] is valid`)
    return frame
  }
  return `${pos.source}:${pos.line}:${pos.column}`
}

export async function resolveWebStack(stack: string, maps: ZipMaps): Promise<WebResult> {
  let reason = ''
  const fail = (r: string): void => {
    reason = r
  }
  const matches = [...stack.matchAll(FRAME)]
  if (matches.length === 0) return { stack, reason }
  let out = ''
  let at = 0
  for (const m of matches) {
    out += stack.slice(at, m.index) + '@ '
    const frame = m[0].slice(2)
    let done = maps.frames.get(frame)
    if (!done) {
      let why = ''
      const text = await resolveFrame(frame, maps, (r) => (why = r))
      maps.frames.set(frame, (done = { text, reason: why }))
    }
    if (done.reason) fail(done.reason)
    out += done.text
    at = m.index + m[0].length
  }
  return { stack: out + stack.slice(at), reason }
}
