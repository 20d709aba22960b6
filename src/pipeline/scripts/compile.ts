/**
 * One script source -> JavaScript for the sandbox, or PlErrors (spec 2.6) with positions.
 * `.p` files are Platypus, compiled here; `.js` files are JavaScript as written.
 */
import { compilePpl, type CompiledScript } from '../ppl/compile.js'
import { jsShape } from '../ppl/js-shape.js'
import { PlSyntaxError } from '../ppl/lexer.js'

export type ScriptLang = 'p' | 'js'

export interface ScriptSource {
  category: string
  name: string
  lang: ScriptLang
  source: string
  /** File name shown in errors (`nginx.p`). */
  file: string
}

export { scriptName } from './script-name.js'

export interface Position {
  file: string
  ln: number
  col: number
  pos: number
}

export interface PlError {
  pos_chain: Position[]
  error: string
}

export function compileScript(
  src: ScriptSource,
): { compiled: CompiledScript } | { errors: PlError[] } {
  if (src.lang === 'js') {
    const shape = jsShape(src.source)
    return { compiled: { js: src.source, straight: shape.straight, uses: shape.uses } }
  }
  try {
    return { compiled: compilePpl(src.source) }
  } catch (e) {
    if (e instanceof PlSyntaxError)
      return {
        errors: [
          { pos_chain: [{ file: src.file, ln: e.ln, col: e.col, pos: e.pos }], error: e.message },
        ],
      }
    throw e
  }
}
