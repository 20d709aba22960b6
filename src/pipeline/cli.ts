/**
 * `ferry pipeline test SCRIPT --input FILE`: runs a script on sample data from the shell, the
 * way `/v1/pipeline/debug` does (same engine, same record splitting), and prints each
 * resulting point as a JSON line. Scripts beside SCRIPT are loaded too, for `use()`.
 */
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { FerryError } from '../errors.js'
import { isCategory } from '../shared/category.js'
import { runDebug } from './debug/run.js'
import { scriptName } from './scripts/compile.js'
import type { DebugContent } from './debug/types.js'

export const PIPELINE_USAGE = `  pipeline test SCRIPT --input FILE [--category C] [--data-type T] [--timezone TZ]
                [--multiline PATTERN]
                                  run a script (.p or .js) on sample data and print the points`

export interface PipelineTestOptions {
  script: string
  input: string
  category?: string
  dataType?: string
  timezone?: string
  /** A line matching this starts a record (default `^\S`: indented lines continue one). */
  multiline?: string
}

function siblings(script: string): Record<string, string> {
  const dir = path.dirname(script)
  const out: Record<string, string> = {}
  for (const f of readdirSync(dir)) {
    if (/\.(p|js)$/.test(f)) out[f] = readFileSync(path.join(dir, f)).toString('base64')
  }
  return out
}

export async function pipelineTest(o: PipelineTestOptions): Promise<{ text: string; ok: boolean }> {
  const category = o.category ?? 'logging'
  if (!isCategory(category)) throw new FerryError('invalidCategory', `invalid category ${category}`)
  const file = path.basename(o.script)
  const r = await runDebug(
    {
      kind: 'pipeline-debug',
      pipeline: { [category]: siblings(o.script) },
      scriptName: scriptName(file),
      category,
      data: [readFileSync(o.input).toString('base64')],
      dataType: o.dataType ?? (category === 'logging' ? 'text/plain' : ''),
      encode: 'utf8',
      benchmark: false,
      now: BigInt(Date.now()) * 1_000_000n,
      multilineMatch: o.multiline ?? null,
    },
    o.timezone,
  )
  if (!r.ok) throw new FerryError(r.error.code, r.error.message)
  return render(r.content)
}

function render(c: DebugContent): { text: string; ok: boolean } {
  if (c.pl_errors.length) {
    const lines = c.pl_errors.map((e) => {
      const at = e.pos_chain[0]
      return `${at?.file}:${at?.ln}:${at?.col}: ${e.error}`
    })
    return { text: lines.join('\n'), ok: false }
  }
  const lines = c.plresults.map((r) =>
    JSON.stringify({ ...r.point, run_error: r.run_error?.error ?? null }),
  )
  return { text: lines.join('\n'), ok: c.plresults.every((r) => r.run_error === null) }
}
