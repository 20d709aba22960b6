/** One function of the library (registry.ts lists them all by the reference's names). */
import type { CallCtx } from './context.js'
import type { PlPoint } from './pl-point.js'

export interface LibFn {
  params: string[]
  /**
   * Parameters whose string literals (or lists of them) name keys: the compiler passes them
   * as key references, a variable's with its value (the reference reads variables first).
   */
  keyNames?: string[]
  run: (c: CallCtx, p: PlPoint, a: unknown[]) => unknown
}
