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
  ['agent-build.ts', 'rum-build.ts', 'agent-workspace.ts', 'agent-http.ts', 'agent-log.ts'],
  ['agent-pool.ts', 'agent-reload.ts'],
  ['agent.ts'],
  ['cli'],
  ['main.ts'],
]

import path from 'node:path'

const RANK = new Map(LAYERS.flatMap((names, rank) => names.map((n) => [n, rank])))
const SRC = path.resolve('src')

/** The unit a file belongs to: its folder under src/, or its own name at the top of src/. */
function unit(file) {
  const rel = path.relative(SRC, file)
  if (rel.startsWith('..')) return null
  // Imports name the compiled `.js`; the layers name the sources.
  return rel.split(path.sep)[0].replace(/\.js$/, '.ts')
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
      const to = unit(path.resolve(path.dirname(context.filename), spec))
      if (!to || to === from) return
      const [a, b] = [RANK.get(from), RANK.get(to)]
      const why =
        a === undefined || b === undefined
          ? `add src/${a === undefined ? from : to} to the layers in eslint.layers.js`
          : 'it is not on a lower layer (eslint.layers.js, ARCHITECTURE.md)'
      if (a === undefined || b === undefined || b >= a)
        context.report({
          node,
          messageId: 'up',
          data: { from: `src/${from}`, to: `src/${to}`, why },
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
