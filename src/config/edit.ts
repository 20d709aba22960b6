/**
 * Rewrites the main config file in place, keeping its comments and layout
 * (@decimalturn/toml-patch patches the original text with the changed document).
 *
 * Invariants: the new text is re-parsed and must equal the intended document and pass the
 * config schema before it replaces the file; the replacement is atomic (temp file in the same
 * directory, fsync, rename, fsync of the directory), so a crash leaves the old file or the new
 * one, never a mix. The file's mode is kept.
 */
import fs from 'node:fs'
import path from 'node:path'
import { isDeepStrictEqual } from 'node:util'
import { patch } from '@decimalturn/toml-patch'
import { parse } from 'smol-toml'
import { FerryError } from '../errors.js'
import { checkConfigText } from './load.js'

export type TomlDoc = Record<string, unknown>

/** A parsed document as plain objects (smol-toml returns null-prototype ones). */
function plain(text: string): TomlDoc {
  return structuredClone(parse(text)) as TomlDoc
}

function fsyncDir(dir: string): void {
  const fd = fs.openSync(dir, 'r')
  try {
    fs.fsyncSync(fd)
  } finally {
    fs.closeSync(fd)
  }
}

export function writeAtomic(file: string, text: string, mode?: number): void {
  const tmp = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.tmp`)
  const fd = fs.openSync(tmp, 'w', mode ?? 0o644)
  try {
    fs.writeFileSync(fd, text)
    fs.fsyncSync(fd)
  } finally {
    fs.closeSync(fd)
  }
  try {
    if (mode !== undefined) fs.chmodSync(tmp, mode)
    fs.renameSync(tmp, file)
  } catch (e) {
    fs.rmSync(tmp, { force: true })
    throw e
  }
  fsyncDir(path.dirname(file))
}

/** The patched text of `text` after `change`; null when `change` left the document as it was. */
export function patchToml(
  text: string,
  file: string,
  change: (doc: TomlDoc) => void,
): string | null {
  const before = plain(text)
  const wanted = plain(text)
  change(wanted)
  if (isDeepStrictEqual(before, wanted)) return null
  const out = patch(text, wanted)
  let reparsed: TomlDoc
  try {
    reparsed = plain(out)
  } catch (e) {
    throw new FerryError('configWriteFailed', `${file}: the edited text does not parse: ${e}`)
  }
  if (!isDeepStrictEqual(reparsed, wanted))
    throw new FerryError('configWriteFailed', `${file}: the edited text does not hold the change`)
  return out
}

/**
 * Applies `change` to the TOML file: patch, re-parse, validate against the schema (the result
 * must still load), then replace atomically. Returns false when nothing changed.
 */
export function editTomlFile(file: string, change: (doc: TomlDoc) => void): boolean {
  let text: string
  let mode: number
  try {
    text = fs.readFileSync(file, 'utf8')
    mode = fs.statSync(file).mode & 0o7777
  } catch (e) {
    throw new FerryError('configWriteFailed', `${file}: ${(e as Error).message}`)
  }
  const out = patchToml(text, file, change)
  if (out === null) return false
  const problems = checkConfigText(out, file)
  if (problems.length)
    throw new FerryError(
      'configWriteFailed',
      `the edited config is invalid: ${problems.join('; ')}`,
    )
  try {
    writeAtomic(file, out, mode)
  } catch (e) {
    throw new FerryError('configWriteFailed', `${file}: ${(e as Error).message}`)
  }
  return true
}
