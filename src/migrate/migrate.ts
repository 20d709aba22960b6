/**
 * `ferry migrate`: reads a reference agent's datakit.conf and its input files (every `*.conf`
 * under the inputs folder, `conf.d/<input>/*.conf` in the reference layout) and plans Ferry's
 * files: `ferry.conf` and each input file at the same relative path beside it, where Ferry
 * looks for them. Planning reads only; `writeMigration` writes, and refuses to replace any
 * existing file unless forced, checking every target before it writes the first.
 *
 * A file that cannot be read or parsed stops the migration (nothing is written); keys that
 * cannot be mapped do not: they are listed, and the rest is written.
 */
import fs from 'node:fs'
import path from 'node:path'
import { parse } from 'smol-toml'
import { SCHEMA } from '../config/schema.js'
import type { SectionSpec } from '../config/spec.js'
import { FerryError } from '../errors.js'
import { confFiles } from '../inputs/conf/load.js'
import { mapInputFile, type Instance } from './inputs.js'
import { mapMainConfig, type Sections } from './main-config.js'
import { quoteBareTemplates } from './placeholders.js'
import { tomlTable } from './render.js'
import { Problems, type Problem } from './report.js'

export interface MigrateOptions {
  /** The reference's datakit.conf. */
  mainFile: string
  /** Where its input files are; default: the folder of mainFile. */
  inputsDir?: string
  env: NodeJS.ProcessEnv
  /** Input name -> its Ferry schema (the inputs Ferry has). */
  inputs: ReadonlyMap<string, SectionSpec>
}

export interface Plan {
  /** Relative to the output folder -> text. */
  files: Map<string, string>
  problems: Problem[]
  /** Keys left out because their value asked for nothing Ferry lacks. */
  skipped: number
}

function readToml(file: string, what: string): Record<string, unknown> {
  let text: string
  try {
    text = fs.readFileSync(file, 'utf8')
  } catch (e) {
    const reason = (e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : String(e)
    throw new FerryError('fileUnreadable', `cannot read ${what} ${file}: ${reason}`)
  }
  try {
    return parse(quoteBareTemplates(text.replace(/^\uFEFF/, ''))) as Record<string, unknown>
  } catch (e) {
    throw new FerryError('configInvalid', `${file}: ${(e as Error).message.split('\n')[0]}`)
  }
}

function inputsFolder(o: MigrateOptions): string {
  const dir = o.inputsDir ?? path.dirname(o.mainFile)
  if (!fs.statSync(dir, { throwIfNoEntry: false })?.isDirectory())
    throw new FerryError('fileUnreadable', `cannot read inputs folder ${dir}: not a folder`)
  return dir
}

export function planMigration(o: MigrateOptions): Plan {
  const mainProblems = new Problems(path.basename(o.mainFile))
  const doc = readToml(o.mainFile, 'datakit.conf')
  const sections = mapMainConfig(doc, mainProblems, o.env, new Set(o.inputs.keys()))
  const files = new Map([['ferry.conf', mainText(sections, path.basename(o.mainFile))]])
  const all = [mainProblems]
  const dir = inputsFolder(o)
  for (const file of confFiles(dir, o.mainFile)) {
    const rel = path.relative(dir, file)
    const problems = new Problems(rel)
    all.push(problems)
    const instances = mapInputFile(readToml(file, 'input file'), problems, o.env, o.inputs)
    if (instances.length) files.set(rel, inputText(instances, rel))
  }
  return {
    files,
    problems: all.flatMap((p) => p.list),
    skipped: all.reduce((n, p) => n + p.skipped, 0),
  }
}

const HEADER = (from: string) => `# Written by \`ferry migrate\` from ${from}.`

function mainText(sections: Sections, from: string): string {
  const parts = [
    `${HEADER(from)}\n# Keys not written here take Ferry's defaults; conf.d/ferry.conf documents every key.`,
  ]
  for (const [name, spec] of Object.entries(SCHEMA as Record<string, SectionSpec>)) {
    const body = sections.get(name)
    if (!body) continue
    const order = Object.keys(spec)
    const sorted = Object.entries(body).sort(([a], [b]) => order.indexOf(a) - order.indexOf(b))
    parts.push(tomlTable(name.split('.'), Object.fromEntries(sorted), '').join('\n'))
  }
  return `${parts.join('\n\n')}\n`
}

function inputText(instances: Instance[], from: string): string {
  const parts = [HEADER(from)]
  for (const i of instances)
    parts.push(tomlTable(['inputs', i.name], i.conf, '  ', true).join('\n'))
  return `${parts.join('\n\n')}\n`
}

/** Writes the plan under `outDir`; returns the paths written. */
export function writeMigration(plan: Plan, outDir: string, force: boolean): string[] {
  const targets = [...plan.files.keys()].map((rel) => path.join(outDir, rel))
  const existing = targets.find((t) => fs.existsSync(t))
  if (existing && !force)
    throw new FerryError('outputExists', `${existing} exists (--force replaces it)`)
  for (const [rel, text] of plan.files) {
    const target = path.join(outDir, rel)
    fs.mkdirSync(path.dirname(target), { recursive: true })
    // Main and input configs may hold tokens and passwords.
    fs.writeFileSync(target, text, { mode: 0o600 })
  }
  return targets
}
