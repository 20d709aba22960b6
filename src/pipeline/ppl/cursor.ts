/** A cursor over Platypus tokens, shared by the expression and statement parsers. */
import type { At } from './ast.js'
import { PlSyntaxError, type Tok } from './lexer.js'

export class Cursor {
  protected i = 0
  constructor(protected readonly toks: Tok[]) {}

  protected get tok(): Tok {
    return this.toks[this.i]
  }
  protected at(t: Tok = this.tok): At {
    return { pos: t.pos, ln: t.ln, col: t.col }
  }
  protected fail(msg: string, t: Tok = this.tok): never {
    throw new PlSyntaxError(msg, t.pos, t.ln, t.col)
  }
  protected isOp(text: string): boolean {
    return this.tok.kind === 'op' && this.tok.text === text
  }
  protected isWord(text: string): boolean {
    return this.tok.kind === 'id' && this.tok.text === text
  }
  protected expectOp(text: string): void {
    if (!this.isOp(text)) this.fail(`expected "${text}", found ${this.describe()}`)
    this.i++
  }
  protected describe(): string {
    return this.tok.kind === 'eof' ? 'end of script' : JSON.stringify(this.tok.text)
  }
  protected skipEnds(): void {
    while (this.tok.kind === 'nl' || this.isOp(';')) this.i++
  }

  protected skipNewlines(): void {
    while (this.tok.kind === 'nl') this.i++
  }
}
