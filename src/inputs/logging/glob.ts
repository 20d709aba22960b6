/**
 * File globs for `logfiles` and `ignore`: `*` and `?` within one path segment, `**` across
 * segments, `[...]` classes. Only the folders a pattern can reach are listed, so a pattern such
 * as `/var/log/*.log` never walks the whole disk.
 */
import fs from 'node:fs'
import path from 'node:path'

const MAGIC = /[*?[]/

/** A regular expression matching a whole path (or path segment) for the glob `g`. */
export function globToRegExp(g: string): RegExp {
  let re = ''
  for (let i = 0; i < g.length; i++) {
    const c = g[i]!
    if (c === '*' && g[i + 1] === '*') {
      re += '.*'
      i++
    } else if (c === '*') re += '[^/]*'
    else if (c === '?') re += '[^/]'
    else if (c === '[') {
      const end = g.indexOf(']', i + 1)
      if (end < 0) re += '\\['
      else {
        re +=
          '[' +
          g
            .slice(i + 1, end)
            .replace(/^!/, '^')
            .replace(/\\/g, '\\\\') +
          ']'
        i = end
      }
    } else re += c.replace(/[.+^${}()|\\\]]/g, '\\$&')
  }
  return new RegExp(`^${re}$`)
}

function list(dir: string): fs.Dirent[] {
  try {
    return fs.readdirSync(dir, { withFileTypes: true })
  } catch {
    return []
  }
}

/** Every regular file under `dir` whose remaining path matches `segs`. */
function walk(dir: string, segs: string[], out: Set<string>): void {
  const [seg, ...rest] = segs
  if (seg === undefined) return
  if (seg === '**') {
    walk(dir, rest, out)
    for (const e of list(dir)) if (e.isDirectory()) walk(path.join(dir, e.name), segs, out)
    return
  }
  const literal = !MAGIC.test(seg)
  const re = literal ? null : globToRegExp(seg)
  const names = literal ? [seg] : list(dir).map((e) => e.name)
  for (const name of names) {
    if (re && !re.test(name)) continue
    const p = path.join(dir, name)
    if (rest.length) walk(p, rest, out)
    else if (isFile(p)) out.add(p)
  }
}

function isFile(p: string): boolean {
  try {
    return fs.statSync(p).isFile()
  } catch {
    return false
  }
}

/** The files matching any of `patterns` and none of `ignore` (matched on path or base name). */
export function expand(patterns: string[], ignore: string[]): string[] {
  const out = new Set<string>()
  for (const p of patterns) {
    const abs = path.resolve(p)
    walk(path.parse(abs).root, abs.split(path.sep).filter(Boolean), out)
  }
  const ig = ignore.map(globToRegExp)
  return [...out].filter((f) => !ig.some((re) => re.test(f) || re.test(path.basename(f)))).sort()
}
