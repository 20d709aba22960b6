// The layers of ARCHITECTURE.md as a lint rule: a module may import only from its own folder or
// from a folder on a lower layer, so no two folders can ever import each other in a loop. No
// file is exempt. Layers, lowest first (a folder of src/, or a file at the top of src/):
const LAYERS = [
  ['errors.ts', 'component.ts', 'identity.ts'],
  ['shared'],
  ['config'],
  ['decode', 'http', 'buffer', 'rum'],
  ['pipeline'],
  ['ingest', 'sinks', 'tags', 'dialtest'],
  ['telemetry'],
  ['inputs'],
  ['monitor', 'service', 'workspace', 'migrate', 'reload.ts'],
  ['sources'],
  ['agent'],
  ['cli'],
  ['main.ts'],
]

// Inside a folder named here, its files (or subfolders) are layered the same way.
const INNER = {
  agent: [
    ['build.ts', 'rum.ts', 'workspace.ts', 'http.ts', 'log.ts'],
    ['pool.ts', 'reload.ts'],
    ['core.ts'],
    ['uplink.ts'],
    ['front.ts'],
    ['agent.ts'],
  ],
}

import path from 'node:path'

const ranks = (layers) => new Map(layers.flatMap((names, rank) => names.map((n) => [n, rank])))
const RANK = ranks(LAYERS)
const INNER_RANK = new Map(Object.entries(INNER).map(([dir, layers]) => [dir, ranks(layers)]))
const SRC = path.resolve('src')

/**
 * The unit a file belongs to: its folder under src/, or its own name at the top of src/; inside
 * a folder of INNER, the file or subfolder under it (`agent/core.ts`).
 */
function unit(file) {
  const rel = path.relative(SRC, file)
  if (rel.startsWith('..')) return null
  // Imports name the compiled `.js`; the layers name the sources.
  const [top, next] = rel.split(path.sep).map((p) => p.replace(/\.js$/, '.ts'))
  return Object.hasOwn(INNER, top) && next ? `${top}/${next}` : top
}

/** A unit's rank, and the layers it is ranked in: the folder's own for `agent/core.ts`. */
function rankOf(u) {
  const [top, inner] = u.split('/')
  return inner ? INNER_RANK.get(top).get(inner) : RANK.get(top)
}

/** Units compared: an inner unit against another folder is its folder. */
function pair(from, to) {
  const [f, t] = [from.split('/')[0], to.split('/')[0]]
  return f === t ? [from, to] : [f, t]
}

const rule = {
  meta: {
    type: 'problem',
    schema: [],
    messages: { up: '{{from}} may not import {{to}}: {{why}}' },
  },
  create(context) {
    const from = unit(context.filename)
    if (!from) return {}
    const check = (node, spec) => {
      if (typeof spec !== 'string' || !spec.startsWith('.')) return
      const target = unit(path.resolve(path.dirname(context.filename), spec))
      if (!target) return
      const [f, to] = pair(from, target)
      if (f === to) return
      const [a, b] = [rankOf(f), rankOf(to)]
      const why =
        a === undefined || b === undefined
          ? `add src/${a === undefined ? f : to} to the layers in eslint.layers.js`
          : 'it is not on a lower layer (eslint.layers.js, ARCHITECTURE.md)'
      if (a === undefined || b === undefined || b >= a)
        context.report({
          node,
          messageId: 'up',
          data: { from: `src/${f}`, to: `src/${to}`, why },
        })
    }
    return {
      ImportDeclaration: (n) => check(n, n.source.value),
      ExportNamedDeclaration: (n) => n.source && check(n, n.source.value),
      ExportAllDeclaration: (n) => check(n, n.source.value),
      ImportExpression: (n) => n.source.type === 'Literal' && check(n, n.source.value),
    }
  },
}

export const layers = { rules: { layers: rule } }
