/**
 * Maps a parsed datakit.conf onto Ferry's main config: every leaf key is expanded
 * (placeholders), then moved by its rule (main-rules.ts), by a handler below for the keys whose
 * shape changes, or to Ferry's key of the same section and name; whatever cannot move is
 * reported with its reason, unless its value asks for nothing (see main-rules.ts).
 *
 * The result holds only keys to write, each already accepted by Ferry's schema checks, so
 * the written file loads; keys not written take Ferry's defaults.
 */
import { SCHEMA } from '../config/schema.js'
import type { KeySpec, SectionSpec } from '../config/spec.js'
import { ALIASES, DEFAULTS, RULES, ruleOf } from './main-rules.js'
import { Problems } from './report.js'
import { HANDLERS, type Target } from './main-handlers.js'
import {
  expandValue,
  forKey,
  isEmpty,
  isTable,
  sameValue,
  switchedOff,
  type Expanded,
} from './values.js'

/** Ferry section -> key -> value to write. */
export type Sections = Map<string, Record<string, unknown>>

/** Tables that are one value each (tag tables, the category -> script table). */
const LEAF_TABLES = new Set(['global_host_tags', 'election.tags', 'pipeline.default_pipeline'])

const schema: Readonly<Record<string, SectionSpec>> = SCHEMA

function specOf(target: string): [string, string, KeySpec] | undefined {
  const dot = target.lastIndexOf('.')
  const [section, key] = [target.slice(0, dot), target.slice(dot + 1)]
  const spec = schema[section]?.[key]
  return spec && key !== '*' ? [section, key, spec] : undefined
}

interface Visit {
  /** The reference path the key stands for (aliases resolved). */
  path: string
  /** The key as written, for the report. */
  shown: string
  raw: unknown
  /** Inside a section switched off (`enable = false`). */
  off: boolean
}

export class MainMapper implements Target {
  readonly sections: Sections = new Map()

  constructor(
    readonly problems: Problems,
    readonly env: NodeJS.ProcessEnv,
    readonly inputNames: ReadonlySet<string>,
    readonly doc: Record<string, unknown>,
  ) {}

  run(): Sections {
    this.walk(this.doc, '', '', false)
    return this.sections
  }

  private walk(table: Record<string, unknown>, prefix: string, shownPrefix: string, off: boolean) {
    const switchedOff = off || table.enable === false || table.enabled === false
    for (const [k, raw] of Object.entries(table)) {
      const path = prefix ? `${prefix}.${k}` : (ALIASES[k] ?? k)
      const shown = shownPrefix ? `${shownPrefix}.${k}` : k
      if (isTable(raw) && !LEAF_TABLES.has(path)) this.walk(raw, path, shown, switchedOff)
      else this.visit({ path, shown, raw, off: prefix ? switchedOff : false })
    }
  }

  private visit(v: Visit): void {
    const handler = HANDLERS[v.path]
    if (handler) return handler(v.raw, v.shown, this, v.path)
    const rule = RULES[v.path]
    if (rule && 'to' in rule) return this.moveRaw(v.raw, rule.to, v.shown)
    if (specOf(v.path)) return this.moveRaw(v.raw, v.path, v.shown)
    this.drop(v)
  }

  /** A key Ferry does not take: reported unless its value asks for nothing. */
  drop(v: Visit): void {
    const rule = ruleOf(v.path)
    const inert =
      v.off || isEmpty(v.raw) || switchedOff(v.raw) || sameValue(v.raw, DEFAULTS[v.path])
    if (rule && 'same' in rule) this.problems.skipped++
    else if (rule && 'drop' in rule && inert) this.problems.skipped++
    else if (rule && 'drop' in rule) this.problems.add(v.shown, rule.drop)
    else this.problems.add(v.shown, "not a key of the reference's datakit.conf 1.84")
  }

  dropPath(path: string, shown: string, raw: unknown): void {
    this.drop({ path, shown, raw, off: false })
  }

  /** Expands `raw` and writes it to the Ferry key `target`, or reports why not. */
  moveRaw(raw: unknown, target: string, shown: string): void {
    const e = expandValue(raw, this.env)
    if ('problem' in e) return this.problems.add(shown, e.problem)
    this.move(e, target, shown)
  }

  move(e: Expanded, target: string, shown: string): void {
    const found = specOf(target)
    if (!found) return this.problems.add(shown, `this version of Ferry has no ${target}`)
    const [section, key, spec] = found
    const r = forKey(spec, e)
    if ('problem' in r) return this.problems.add(shown, `${r.problem}; left out`)
    this.set(section, key, r.value)
  }

  set(section: string, key: string, value: unknown): void {
    const s = this.sections.get(section) ?? {}
    s[key] = value
    this.sections.set(section, s)
  }

  get(section: string, key: string): unknown {
    return this.sections.get(section)?.[key]
  }
}

/** Maps a parsed datakit.conf; problems are added to `problems`. */
export function mapMainConfig(
  doc: Record<string, unknown>,
  problems: Problems,
  env: NodeJS.ProcessEnv,
  inputNames: ReadonlySet<string>,
): Sections {
  return new MainMapper(problems, env, inputNames, doc).run()
}
