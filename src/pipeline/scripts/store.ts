/**
 * Script files on disk: `<dir>/<category>/<name>.(p|js)`, logging scripts also at `<dir>/`,
 * custom grok patterns in `<dir>/pattern/` (`NAME regex` per line). Nested folders are
 * ignored. When a name exists as both `.js` and `.p`, the `.js` file is used.
 * `fingerprint` is cheap (stat only) so callers can poll for changes.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import { CATEGORY_NAMES } from '../../shared/category.js'
import type { ScriptSource } from './compile.js'

function listFiles(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => e.name)
      .sort()
  } catch {
    return []
  }
}

function scriptsIn(dir: string, category: string): ScriptSource[] {
  const byName = new Map<string, ScriptSource>()
  for (const file of listFiles(dir)) {
    const m = /^(.+)\.(p|js)$/.exec(file)
    if (!m) continue
    const [, name, lang] = m
    if (byName.get(name)?.lang === 'js') continue
    const source = readFileSync(path.join(dir, file), 'utf8')
    byName.set(name, { category, name, lang: lang as 'p' | 'js', source, file })
  }
  return [...byName.values()]
}

export function scanScripts(root: string): ScriptSource[] {
  const out: ScriptSource[] = []
  const logging = new Map<string, ScriptSource>()
  for (const s of scriptsIn(root, 'logging')) logging.set(s.name, s)
  for (const category of CATEGORY_NAMES) {
    const found = scriptsIn(path.join(root, category), category)
    if (category === 'logging') for (const s of found) logging.set(s.name, s)
    else out.push(...found)
  }
  return [...out, ...logging.values()]
}

export function scanPatterns(root: string): Map<string, string> {
  const out = new Map<string, string>()
  const dir = path.join(root, 'pattern')
  for (const file of listFiles(dir)) {
    for (const line of readFileSync(path.join(dir, file), 'utf8').split('\n')) {
      const m = /^\s*([A-Za-z0-9_]+)\s+(.+?)\s*$/.exec(line)
      if (m && !line.trimStart().startsWith('#')) out.set(m[1], m[2])
    }
  }
  return out
}

/** Names, sizes and mtimes of every file the scan reads; changes when any of them does. */
export function fingerprint(root: string): string {
  const parts: string[] = []
  const add = (dir: string) => {
    for (const f of listFiles(dir)) {
      try {
        const st = statSync(path.join(dir, f))
        parts.push(`${dir}/${f}:${st.size}:${st.mtimeMs}`)
      } catch {
        // Removed between listing and stat: the next poll sees it.
      }
    }
  }
  add(root)
  add(path.join(root, 'pattern'))
  for (const c of CATEGORY_NAMES) add(path.join(root, c))
  return parts.join('|')
}
