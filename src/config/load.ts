/**
 * Loads the main config: TOML file (optional), then ENV_* overrides, validated against SCHEMA.
 * Every problem is reported at once as `file:section.key: message`; unknown keys are errors.
 * The result is deep-frozen.
 */
import fs from 'node:fs'
import { parse } from 'smol-toml'
import { FerryError } from '../errors.js'
import { coerce } from './coerce.js'
import { acceptReferenceNames } from './reference-names.js'
import { SCHEMA, type Config } from './schema.js'
import type { SectionSpec } from './spec.js'

export interface LoadedConfig {
  config: Config
  /** The config path asked for (read or not); pipeline/ sits beside it. */
  path: string
  /** The file read, or null when none exists at the path or in container mode. */
  file: string | null
  /**
   * host: the config is a file Ferry may rewrite (global tag changes are persisted to it).
   * container: defaults plus ENV_* only (FERRY_CONTAINER=1, or no file); changes stay in memory.
   */
  mode: 'host' | 'container'
  /** ENV_* variables that overrode the file. */
  fromEnv: string[]
}

const schema: Readonly<Record<string, SectionSpec>> = SCHEMA

function defaults(): Record<string, Record<string, unknown>> {
  const out: Record<string, Record<string, unknown>> = {}
  for (const [section, keys] of Object.entries(schema)) {
    out[section] = {}
    for (const [key, spec] of Object.entries(keys)) {
      if (key !== '*') out[section][key] = structuredClone(spec.default)
    }
  }
  return out
}

function applyFile(
  out: Record<string, Record<string, unknown>>,
  doc: Record<string, unknown>,
  file: string,
  errors: string[],
): void {
  acceptReferenceNames(doc, file, errors)
  for (const [section, body] of Object.entries(doc)) {
    const keys = schema[section]
    if (!keys || section.includes('.')) {
      errors.push(`${file}:${section}: unknown section`)
      continue
    }
    if (keys['*']) {
      // A free-form table such as [global_host_tags].
      const r = coerce(keys['*'], body, false)
      if (typeof r === 'string') errors.push(`${file}:${section}: ${r}`)
      else out[section] = r[0] as Record<string, unknown>
      continue
    }
    applySection(out, section, body, file, errors)
  }
}

/** One [section]; a nested table that is itself a schema section (e.g. [dataway.wal]) recurses. */
function applySection(
  out: Record<string, Record<string, unknown>>,
  section: string,
  body: unknown,
  file: string,
  errors: string[],
): void {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    errors.push(`${file}:${section}: expected a table`)
    return
  }
  for (const [key, raw] of Object.entries(body)) {
    const nested = `${section}.${key}`
    if (schema[nested] && !schema[section][key]) applySection(out, nested, raw, file, errors)
    else applyKey(out, section, key, raw, `${file}:${nested}`, false, errors)
  }
}

function applyKey(
  out: Record<string, Record<string, unknown>>,
  section: string,
  key: string,
  raw: unknown,
  where: string,
  fromEnv: boolean,
  errors: string[],
): void {
  const spec = schema[section][key]
  if (!spec) {
    errors.push(`${where}: unknown key`)
    return
  }
  const r = coerce(spec, raw, fromEnv)
  if (typeof r === 'string') return void errors.push(`${where}: ${r}`)
  const problem = spec.check?.(r[0] as never)
  if (problem) return void errors.push(`${where}: ${problem}`)
  out[section][key] = r[0]
}

function applyEnv(
  out: Record<string, Record<string, unknown>>,
  env: NodeJS.ProcessEnv,
  errors: string[],
): string[] {
  const used: string[] = []
  for (const [section, keys] of Object.entries(schema)) {
    for (const [key, spec] of Object.entries(keys)) {
      const value = spec.env ? env[spec.env] : undefined
      if (value === undefined || spec.env === undefined) continue
      used.push(spec.env)
      if (key === '*') {
        const r = coerce(spec, value, true)
        if (typeof r === 'string') errors.push(`${spec.env}: ${r}`)
        else out[section] = r[0] as Record<string, unknown>
      } else applyKey(out, section, key, value, spec.env, true, errors)
    }
  }
  return used
}

function deepFreeze<T>(o: T): T {
  if (typeof o === 'object' && o !== null) {
    for (const v of Object.values(o)) deepFreeze(v)
    Object.freeze(o)
  }
  return o
}

function parseToml(text: string, path: string, errors: string[]): Record<string, unknown> {
  try {
    return parse(text) as Record<string, unknown>
  } catch (e) {
    errors.push(`${path}: ${(e as Error).message.split('\n')[0]}`)
    return {}
  }
}

function readToml(path: string, errors: string[]): Record<string, unknown> | null {
  if (!fs.existsSync(path)) return null
  return parseToml(fs.readFileSync(path, 'utf8'), path, errors)
}

/** Validates config text as if it were the file `path` (no ENV_*); returns every problem. */
export function checkConfigText(text: string, path: string): string[] {
  const errors: string[] = []
  const out = defaults()
  applyFile(out, parseToml(text, path, errors), path, errors)
  crossCheck(validated(out), errors)
  return errors
}

/**
 * The one place untyped values become a Config: `out` started from every key's default and
 * took only values that passed their key's coercion and checks, so it has the schema's shape.
 */
function validated(out: Record<string, Record<string, unknown>>): Config {
  return out as Config
}

/** Rules across keys, checked after every key is known. */
function crossCheck(c: Config, errors: string[]): void {
  const tls = c['http_api.tls']
  if (!tls.cert !== !tls.privkey)
    errors.push('http_api.tls: cert and privkey must be set together (or neither)')
  const dw = c.dataway
  if (!dw.tls_cert_file !== !dw.tls_key_file)
    errors.push('dataway: tls_cert_file and tls_key_file must be set together (or neither)')
}

export function containerMode(env: NodeJS.ProcessEnv): boolean {
  return ['1', 'true', 'on', 'yes'].includes((env.FERRY_CONTAINER ?? '').toLowerCase())
}

/** Loads and validates; throws FerryError('configInvalid') listing every problem. */
export function loadConfig(path: string, env: NodeJS.ProcessEnv = process.env): LoadedConfig {
  const errors: string[] = []
  const out = defaults()
  const doc = containerMode(env) ? null : readToml(path, errors)
  if (doc) applyFile(out, doc, path, errors)
  const fromEnv = applyEnv(out, env, errors)
  const config = validated(out)
  crossCheck(config, errors)
  if (errors.length) throw new FerryError('configInvalid', errors.join('\n'))
  const file = doc ? path : null
  return { config: deepFreeze(config), path, file, mode: file ? 'host' : 'container', fromEnv }
}
