/**
 * Reads the inputs' config files: every `*.conf` under the config folder (two levels deep, not
 * the main config nor the pipeline scripts), in the reference agent's format: `[[inputs.cpu]]`
 * tables, one instance each, with `[inputs.cpu.tags]`. Keys are validated against the input's
 * schema; every problem is reported at once as `file:inputs.name.key: message`.
 */
import fs from 'node:fs'
import path from 'node:path'
import { parse } from 'smol-toml'
import { coerce } from '../../config/coerce.js'
import type { AnyInputKind } from '../input.js'

export interface InputConf {
  kind: AnyInputKind
  conf: Record<string, unknown>
  /** The file it came from; '' for a default-enabled input without one. */
  file: string
}

const isTable = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v)

/** How deep input files may sit under the config folder (`conf.d/<input>/<input>.conf`). */
const MAX_DEPTH = 2

/**
 * Every `*.conf` in `dir` and its subfolders down to MAX_DEPTH, sorted, except `skip` and the
 * `pipeline` folder. Bounded on purpose: a config path such as `/etc/ferry.conf` must not make
 * the agent walk a whole file system; folders it may not read are passed over.
 */
export function confFiles(dir: string, skip: string, depth = 0): string[] {
  let entries: fs.Dirent[]
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true })
  } catch {
    return []
  }
  const out: string[] = []
  for (const e of entries) {
    // A Kubernetes ConfigMap volume links each file to `..data/<file>` (so updates swap in at
    // once): follow links, and skip the dot folders, or every file would load twice.
    if (e.name.startsWith('.')) continue
    const p = path.join(dir, e.name)
    const kind = e.isSymbolicLink() ? statOrNull(p) : e
    if (kind?.isDirectory() && e.name !== 'pipeline' && depth < MAX_DEPTH)
      out.push(...confFiles(p, skip, depth + 1))
    else if (kind?.isFile() && e.name.endsWith('.conf') && path.resolve(p) !== path.resolve(skip))
      out.push(p)
  }
  return out.sort()
}

function statOrNull(p: string): fs.Stats | null {
  try {
    return fs.statSync(p)
  } catch {
    return null // a dangling link
  }
}

/** One instance's table: defaults, then its keys, each coerced and checked. */
export function validateInstance(
  kind: AnyInputKind,
  raw: unknown,
  where: string,
  errors: string[],
): Record<string, unknown> {
  const conf: Record<string, unknown> = {}
  for (const [key, spec] of Object.entries(kind.schema)) conf[key] = structuredClone(spec.default)
  if (!isTable(raw)) {
    errors.push(`${where}: expected a table`)
    return conf
  }
  for (const [key, value] of Object.entries(raw)) {
    const spec = kind.schema[key]
    if (!spec) {
      errors.push(`${where}.${key}: unknown key`)
      continue
    }
    const r = coerce(spec, value, false)
    if (typeof r === 'string') errors.push(`${where}.${key}: ${r}`)
    else {
      const problem = spec.check?.(r[0] as never)
      if (problem) errors.push(`${where}.${key}: ${problem}`)
      else conf[key] = r[0]
    }
  }
  return conf
}

function fromDoc(
  doc: Record<string, unknown>,
  file: string,
  kinds: ReadonlyMap<string, AnyInputKind>,
  errors: string[],
): InputConf[] {
  const out: InputConf[] = []
  for (const [top, body] of Object.entries(doc)) {
    if (top !== 'inputs' || !isTable(body)) {
      errors.push(`${file}:${top}: unknown section (input files hold [[inputs.NAME]] tables)`)
      continue
    }
    for (const [name, list] of Object.entries(body)) {
      const kind = kinds.get(name)
      if (!kind) {
        errors.push(`${file}:inputs.${name}: unknown input`)
        continue
      }
      const entries = Array.isArray(list) ? list : [list]
      for (const raw of entries)
        out.push({
          kind,
          conf: validateInstance(kind, raw, `${file}:inputs.${name}`, errors),
          file,
        })
    }
  }
  return out
}

export function readInputFiles(
  files: string[],
  kinds: ReadonlyMap<string, AnyInputKind>,
  errors: string[],
): InputConf[] {
  const out: InputConf[] = []
  for (const file of files) {
    let doc: Record<string, unknown>
    try {
      doc = parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>
    } catch (e) {
      errors.push(`${file}: ${(e as Error).message.split('\n')[0]}`)
      continue
    }
    out.push(...fromDoc(doc, file, kinds, errors))
  }
  return out
}
