/**
 * A fresh clone must test on its own: no file under src/, test/ or bench/ may name a path
 * that leaves the repository (the shared test data once sat beside it and a clone failed).
 */
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { test } from 'node:test'
import { fileURLToPath } from 'node:url'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))
const SCANNED = ['src', 'test', 'bench']
const SKIP = new Set(['fixtures'])

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name)
    if (e.isDirectory()) return SKIP.has(e.name) ? [] : sourceFiles(full)
    return /\.(ts|js|mjs|cjs)$/.test(e.name) ? [full] : []
  })
}

function inside(root: string, dir: string, rel: string): boolean {
  return !path.relative(root, path.resolve(dir, rel)).startsWith('..')
}

/**
 * Every quoted relative path (`'../x'`, `"./y"`, `` `../z/${a}` ``) that resolves outside the
 * repository from the file and from its build output (dist/src/, dist/bench/ sit one level
 * deeper, so `../../package.json` is the root's there).
 */
function escapes(file: string, text: string, root = ROOT): string[] {
  const out: string[] = []
  const dir = path.dirname(file)
  // Tests run from their sources (tsx); only src/ and bench/ run from dist/ too.
  const where = path.relative(root, dir)
  const built = /^(src|bench)\b/.test(where) ? path.join(root, 'dist', where) : dir
  for (const m of text.matchAll(/['"`](\.\.?\/[^'"`$\n]*)/g)) {
    if (!inside(root, dir, m[1]) && !inside(root, built, m[1])) out.push(m[1])
  }
  if (/shared\/testdata/.test(text)) out.push('shared/testdata')
  return out
}

test('a path that leaves the repository is caught', () => {
  const file = path.join(ROOT, 'test/helpers/app.ts')
  assert.deepEqual(escapes(file, "new URL('../../../shared/', import.meta.url)"), [
    '../../../shared/',
  ])
  assert.deepEqual(escapes(file, "import x from '../../src/shared/point.js'"), [])
  assert.deepEqual(escapes(path.join(ROOT, 'src/identity.ts'), "'../../package.json'"), [])
  assert.deepEqual(escapes(file, 'read(`../../../shared/testdata/${f}`)'), [
    '../../../shared/testdata/',
    'shared/testdata',
  ])
})

test('no file under src/, test/ or bench/ reads outside the repository', () => {
  const found: string[] = []
  for (const dir of SCANNED) {
    for (const file of sourceFiles(path.join(ROOT, dir))) {
      if (file === fileURLToPath(import.meta.url)) continue
      for (const p of escapes(file, fs.readFileSync(file, 'utf8')))
        found.push(`${path.relative(ROOT, file)}: ${p}`)
    }
  }
  assert.deepEqual(found, [])
})
