/** What a migration found: keys it could not map, and the line each is printed as. */

export interface Problem {
  /** The reference file, as named to the user (relative to the inputs folder for inputs). */
  file: string
  /** The key's dotted path in that file. */
  key: string
  reason: string
}

export function problemLine(p: Problem): string {
  return `${p.file}:${p.key}: ${p.reason}`
}

/** Collects problems for one file. */
export class Problems {
  readonly list: Problem[] = []
  /** Keys not written because their value asked for nothing Ferry lacks (counted only). */
  skipped = 0

  constructor(readonly file: string) {}

  add(key: string, reason: string): void {
    this.list.push({ file: this.file, key, reason })
  }
}
