/**
 * Physical names of tables and columns. Point keys are case-sensitive (`Host` and `host` are two
 * keys, `CPU` and `cpu` two measurements) but DuckDB identifiers are not, so a name that equals
 * an existing one up to case is stored under `<name>~<n>`, the smallest n free. The choice
 * depends only on the names already in the catalog (commit order), and is recorded there, so
 * it never changes once made.
 */
import { TIME_COLUMN } from './names.js'

/** Case-folded physical names in use, the time column included (`TIME` is taken too). */
export function takenNames(phys: Iterable<string>, withTime: boolean): Set<string> {
  const taken = new Set<string>()
  for (const p of phys) taken.add(p.toLowerCase())
  if (withTime) taken.add(TIME_COLUMN)
  return taken
}

export function physicalName(name: string, taken: Set<string>): string {
  let phys = name
  for (let n = 2; taken.has(phys.toLowerCase()); n++) phys = `${name}~${n}`
  taken.add(phys.toLowerCase())
  return phys
}
