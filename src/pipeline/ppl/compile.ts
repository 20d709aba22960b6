/**
 * Platypus -> JavaScript for the sandbox. Script variables become `$v_` locals; a bare name
 * that is not a variable is a point key: `key("x")` where a function takes it as an argument
 * (so `cast(status_code, "int")` names the key), `get_key("x")` where its value is used.
 * Named arguments are put in place by the library's parameter lists.
 *
 * A script made only of library calls whose arguments are literals or keys is "straight":
 * it does the same thing to every point, so it can run once per batch (batch mode).
 */
import { JS_NAMES, LIBRARY, SANDBOX_VALUE_FNS, isLibraryFunction } from '../lib/registry.js'
import type { Expr, Stmt } from './ast.js'
import { checkPatterns } from './check-patterns.js'
import { PlSyntaxError, parsePpl } from './parser.js'

export interface CompiledScript {
  js: string
  straight: boolean
  /** Scripts named by `use("...")` with a literal. */
  uses: string[]
}

/** Arithmetic runs through the sandbox's helpers, exact over int64 (sandbox/operators.ts). */
const ARITH: Record<string, string> = {
  '+': '$add',
  '-': '$sub',
  '*': '$mul',
  '/': '$div',
  '%': '$mod',
}

class Compiler {
  readonly locals = new Set<string>()
  readonly uses: string[] = []

  constructor(private readonly src: string) {}

  collect(stmts: Stmt[]): void {
    for (const s of stmts) {
      if (s.t === 'assign' && s.target.t === 'id') this.locals.add(s.target.name)
      if (s.t === 'multi') for (const t of s.targets) if (t.t === 'id') this.locals.add(t.name)
      if (s.t === 'loop') this.collect([s.init, s.step, ...s.body].filter((x) => x !== null))
      if (s.t === 'for') {
        this.locals.add(s.name)
        this.collect(s.body)
      }
      if (s.t === 'if') {
        for (const [, body] of s.branches) this.collect(body)
        if (s.otherwise) this.collect(s.otherwise)
      }
    }
  }

  block(stmts: Stmt[]): string {
    return stmts.map((s) => this.stmt(s)).join('\n')
  }

  stmt(s: Stmt): string {
    switch (s.t) {
      case 'expr':
        return `${this.expr(s.expr)};`
      case 'assign': {
        const target = this.lvalue(s.target)
        const fn = ARITH[s.op.slice(0, -1)]
        if (s.op === '=' || !fn) return `${target} ${s.op} ${this.expr(s.value)};`
        return `${target} = ${fn}(${target}, ${this.expr(s.value)});`
      }
      case 'multi': {
        // Every value is computed before any target is written (`a, b = b, a` swaps).
        const values = s.values.map((v) => this.expr(v)).join(', ')
        const sets = s.targets.map((t, i) => `${this.lvalue(t)} = $t[${i}];`).join(' ')
        return `{ const $t = [${values}]; ${sets} }`
      }
      case 'loop': {
        const part = (x: Stmt | null) => (x ? this.stmt(x).replace(/;$/, '') : '')
        const cond = s.cond ? `$truthy(${this.expr(s.cond)})` : ''
        return `for (${part(s.init)}; ${cond}; ${part(s.step)}) {\n${this.block(s.body)}\n}`
      }
      case 'if': {
        const parts = s.branches.map(
          ([c, body], i) =>
            `${i ? ' else ' : ''}if ($truthy(${this.expr(c)})) {\n${this.block(body)}\n}`,
        )
        return parts.join('') + (s.otherwise ? ` else {\n${this.block(s.otherwise)}\n}` : '')
      }
      case 'for':
        return `for ($v_${s.name} of $iter(${this.expr(s.iter)})) {\n${this.block(s.body)}\n}`
      case 'jump':
        return `${s.kind};`
    }
  }

  /** An assignment target: `m["k"] = v` and `m.k = v` write into the map (`$get` only reads). */
  private lvalue(e: Expr): string {
    if (e.t === 'id') return `$v_${e.name}`
    if (e.t === 'index') return `${this.expr(e.obj)}[${this.expr(e.index)}]`
    if (e.t === 'attr') return `${this.expr(e.obj)}[${JSON.stringify(e.name)}]`
    return this.expr(e)
  }

  /** A name path (`a`, `a.b`) rooted at a point key, or null. */
  private keyPath(e: Expr): string | null {
    if (e.t === 'id') return e.name === '_' || this.locals.has(e.name) ? null : e.name
    if (e.t === 'attr') {
      const root = this.keyPath(e.obj)
      return root === null ? null : `${root}.${e.name}`
    }
    return null
  }

  arg(e: Expr): string {
    if (e.t === 'id' && e.name === '_') return '_'
    if (e.t === 'id' && this.locals.has(e.name))
      return `key(${JSON.stringify(e.name)}, $v_${e.name})`
    const path = this.keyPath(e)
    return path !== null ? `key(${JSON.stringify(path)})` : this.expr(e)
  }

  /** A key named by a string literal (or a list of them): a reference, variables first. */
  private keyName(e: Expr): string {
    if (e.t === 'lit' && typeof e.value === 'string' && e.value !== '')
      return this.arg({ t: 'id', name: e.value, pos: e.pos, ln: e.ln, col: e.col })
    if (e.t === 'list') return `[${e.items.map((x) => this.keyName(x)).join(', ')}]`
    return this.arg(e)
  }

  call(e: Extract<Expr, { t: 'call' }>): string {
    if (!isLibraryFunction(e.name))
      throw new PlSyntaxError(`unknown function ${e.name}`, e.pos, e.ln, e.col)
    if (e.name === 'use' && e.args[0]?.t === 'lit') this.uses.push(String(e.args[0].value))
    const byValue = SANDBOX_VALUE_FNS.has(e.name)
    const params = LIBRARY[e.name]?.params ?? []
    const keyNames = LIBRARY[e.name]?.keyNames ?? []
    const named = (i: number) => keyNames.includes(params[i])
    const args = e.args.map((a, i) =>
      byValue ? this.expr(a) : named(i) ? this.keyName(a) : this.arg(a),
    )
    for (const [name, value] of e.named) {
      const at = params.indexOf(name)
      if (at < 0)
        throw new PlSyntaxError(
          `${e.name} has no parameter ${name}`,
          value.pos,
          value.ln,
          value.col,
        )
      while (args.length < at) args.push('undefined')
      args[at] = named(at) ? this.keyName(value) : this.arg(value)
    }
    checkPatterns(e, params, this.src)
    return `${JS_NAMES[e.name] ?? e.name}(${args.join(', ')})`
  }

  expr(e: Expr): string {
    switch (e.t) {
      case 'lit':
        return typeof e.value === 'bigint' ? `${e.value}n` : JSON.stringify(e.value)
      case 'id':
        if (e.name === '_') return 'get_key(_)'
        return this.locals.has(e.name) ? `$v_${e.name}` : `get_key(${JSON.stringify(e.name)})`
      case 'attr':
        return `$get(${this.expr(e.obj)}, ${JSON.stringify(e.name)})`
      case 'index':
        return `$get(${this.expr(e.obj)}, ${this.expr(e.index)})`
      case 'slice': {
        const part = (x: Expr | null) => (x ? this.expr(x) : 'null')
        return `$slice(${this.expr(e.obj)}, ${part(e.start)}, ${part(e.end)}, ${part(e.step)})`
      }
      case 'in':
        return `$in(${this.expr(e.left)}, ${this.expr(e.right)})`
      case 'call':
        return this.call(e)
      case 'list':
        return `[${e.items.map((x) => this.expr(x)).join(', ')}]`
      case 'map':
        return `({${e.entries.map(([k, v]) => `[${this.expr(k)}]: ${this.expr(v)}`).join(', ')}})`
      case 'unary':
        return `(${e.op}${this.expr(e.arg)})`
      case 'binary': {
        const fn = ARITH[e.op]
        if (fn) return `${fn}(${this.expr(e.left)}, ${this.expr(e.right)})`
        const op = e.op === '==' ? '===' : e.op === '!=' ? '!==' : e.op
        return `(${this.expr(e.left)} ${op} ${this.expr(e.right)})`
      }
    }
  }

  /** Arguments that are the same for every point or read only keys. */
  private pointFree(e: Expr): boolean {
    if (e.t === 'lit') return true
    if (e.t === 'id' || e.t === 'attr')
      return e.t === 'id' ? !this.locals.has(e.name) : this.keyPath(e) !== null
    if (e.t === 'list') return e.items.every((x) => this.pointFree(x) && x.t === 'lit')
    if (e.t === 'map') return e.entries.every(([k, v]) => k.t === 'lit' && v.t === 'lit')
    if (e.t === 'unary') return e.op === '-' && e.arg.t === 'lit'
    return false
  }

  straight(stmts: Stmt[]): boolean {
    if (this.locals.size) return false
    return stmts.every(
      (s) =>
        s.t === 'expr' &&
        s.expr.t === 'call' &&
        s.expr.args.every((a) => this.pointFree(a)) &&
        s.expr.named.every(([, v]) => this.pointFree(v)),
    )
  }
}

export function compilePpl(src: string): CompiledScript {
  const stmts = parsePpl(src)
  const c = new Compiler(src)
  c.collect(stmts)
  const body = c.block(stmts)
  const decl = c.locals.size
    ? `let ${[...c.locals].map((n) => `$v_${n} = null`).join(', ')};\n`
    : ''
  return { js: decl + body, straight: c.straight(stmts), uses: c.uses }
}
