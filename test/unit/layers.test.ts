/**
 * The layers lint rule (eslint.layers.js) refuses an import that goes up or sideways between
 * folders, so a loop between folders cannot come back; and the source tree passes it today.
 */
import assert from 'node:assert/strict'
import path from 'node:path'
import { test } from 'node:test'
import { ESLint } from 'eslint'

const lint = new ESLint({ cwd: path.resolve('.') })

async function errorsFor(file: string, code: string): Promise<string[]> {
  const [r] = await lint.lintText(code, { filePath: path.resolve(file) })
  return r.messages.filter((m) => m.ruleId === 'ferry/layers').map((m) => m.message)
}

test('an import from a higher or sibling layer is refused, naming both folders', async () => {
  assert.deepEqual(await errorsFor('src/decode/x.ts', "import { a } from '../pipeline/y.js'\n"), [
    'src/decode may not import src/pipeline: it is not on a lower layer (eslint.layers.js, ARCHITECTURE.md)',
  ])
  assert.deepEqual(await errorsFor('src/http/x.ts', "export * from '../buffer/buffer.js'\n"), [
    'src/http may not import src/buffer: it is not on a lower layer (eslint.layers.js, ARCHITECTURE.md)',
  ])
  assert.equal(
    (await errorsFor('src/workspace/x.ts', "await import('../sources/http/app.js')\n")).length,
    1,
  )
})

test('imports down the layers and inside a folder pass', async () => {
  assert.deepEqual(
    await errorsFor(
      'src/pipeline/x.ts',
      "import { a } from '../decode/y.js'\nimport { b } from './z.js'\n",
    ),
    [],
  )
})

test('a folder missing from the layers is reported, not let through', async () => {
  assert.match(
    (await errorsFor('src/newthing/x.ts', "import { a } from '../shared/y.js'\n"))[0],
    /add src\/newthing to the layers/,
  )
})

test("inside a layered folder (src/agent) a file imports only its folder's lower layers", async () => {
  assert.deepEqual(await errorsFor('src/agent/core.ts', "import { a } from './front.js'\n"), [
    'src/agent/core.ts may not import src/agent/front.ts: it is not on a lower layer (eslint.layers.js, ARCHITECTURE.md)',
  ])
  assert.deepEqual(await errorsFor('src/agent/front.ts', "import { a } from './core.js'\n"), [])
  assert.match(
    (await errorsFor('src/agent/new.ts', "import { a } from './core.js'\n"))[0],
    /add src\/agent\/new\.ts to the layers/,
  )
  // Against other folders the whole folder is the unit.
  assert.deepEqual(await errorsFor('src/agent/core.ts', "import { a } from '../cli/y.js'\n"), [
    'src/agent may not import src/cli: it is not on a lower layer (eslint.layers.js, ARCHITECTURE.md)',
  ])
  assert.deepEqual(await errorsFor('src/cli/x.ts', "import { a } from '../agent/agent.js'\n"), [])
})
