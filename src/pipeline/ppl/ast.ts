/** Platypus syntax tree. Every node keeps the position of its first token. */
export interface At {
  pos: number
  ln: number
  col: number
}

export type Expr =
  | ({ t: 'lit'; value: string | number | bigint | boolean | null } & At)
  | ({ t: 'id'; name: string } & At)
  | ({ t: 'attr'; obj: Expr; name: string } & At)
  | ({ t: 'index'; obj: Expr; index: Expr } & At)
  | ({ t: 'slice'; obj: Expr; start: Expr | null; end: Expr | null; step: Expr | null } & At)
  | ({ t: 'call'; name: string; args: Expr[]; named: [string, Expr][] } & At)
  | ({ t: 'list'; items: Expr[] } & At)
  | ({ t: 'map'; entries: [Expr, Expr][] } & At)
  | ({ t: 'unary'; op: string; arg: Expr } & At)
  | ({ t: 'binary'; op: string; left: Expr; right: Expr } & At)
  | ({ t: 'in'; left: Expr; right: Expr } & At)

export type Stmt =
  | ({ t: 'expr'; expr: Expr } & At)
  | ({ t: 'assign'; target: Expr; op: string; value: Expr } & At)
  | ({ t: 'if'; branches: [Expr, Stmt[]][]; otherwise: Stmt[] | null } & At)
  | ({ t: 'for'; name: string; iter: Expr; body: Stmt[] } & At)
  | ({ t: 'loop'; init: Stmt | null; cond: Expr | null; step: Stmt | null; body: Stmt[] } & At)
  | ({ t: 'multi'; targets: Expr[]; values: Expr[] } & At)
  | ({ t: 'jump'; kind: 'break' | 'continue' } & At)
