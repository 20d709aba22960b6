/**
 * No two source files import each other, directly or around a loop (type-only imports
 * included: a loop of types is a loop of design). The layers rule (layers.test.ts) keeps
 * folders apart; this keeps the files inside a folder apart too, in the agent and workspace,
 * the workers, the studio and the benchmarks. Read from the sources' own import and export
 * statements, static and dynamic, resolved to the files they name.
 */
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { test } from 'node:test'

const ROOTS = ['src', 'workers', 'ui/src', 'bench']
const SPEC =
  /(?:^|\n)\s*(?:import|export)\b[^'"]*?from\s*'(\.[^']+)'|\bimport\(\s*'(\.[^']+)'\s*\)/g

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name)
    if (e.isDirectory()) return sources(p)
    return e.name.endsWith('.ts') ? [p] : []
  })
}

/** Each file's imports of other files of the tree. */
function importGraph(files: string[]): Map<string, string[]> {
  const known = new Set(files)
  const graph = new Map<string, string[]>()
  for (const f of files) {
    const text = fs.readFileSync(f, 'utf8')
    const to = [...text.matchAll(SPEC)]
      .map((m) => path.join(path.dirname(f), (m[1] ?? m[2]).replace(/\.js$/, '.ts')))
      .filter((t) => known.has(t))
    graph.set(f, [...new Set(to)])
  }
  return graph
}

/** Strongly connected components of more than one file, or of a file importing itself. */
function loops(graph: Map<string, string[]>): string[][] {
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const on = new Set<string>()
  const out: string[][] = []
  const visit = (v: string) => {
    index.set(v, index.size)
    low.set(v, index.get(v)!)
    stack.push(v)
    on.add(v)
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) visit(w)
      if (on.has(w)) low.set(v, Math.min(low.get(v)!, low.get(w)!))
    }
    if (low.get(v) !== index.get(v)) return
    const scc: string[] = []
    let w: string
    do {
      w = stack.pop()!
      on.delete(w)
      scc.push(w)
    } while (w !== v)
    if (scc.length > 1 || graph.get(v)?.includes(v)) out.push(scc.sort())
  }
  for (const v of graph.keys()) if (!index.has(v)) visit(v)
  return out
}

test('a loop of imports is found, with every file in it', () => {
  const g = new Map([
    ['a', ['b']],
    ['b', ['c']],
    ['c', ['a', 'd']],
    ['d', []],
  ])
  assert.deepEqual(loops(g), [['a', 'b', 'c']])
  assert.deepEqual(loops(new Map([['a', ['a']]])), [['a']])
  assert.deepEqual(
    loops(
      new Map([
        ['a', ['b']],
        ['b', []],
      ]),
    ),
    [],
  )
})

test('the sources import one another in no loop', () => {
  const graph = importGraph(ROOTS.flatMap(sources))
  assert.ok(graph.size > 500, `read ${graph.size} files`)
  assert.deepEqual(loops(graph), [])
})
