/**
 * iOS stacks, as the reference symbolicates them: frames `<module> <address> <load> + <offset>`
 * are grouped by module and load address; each group goes to `atos`/`atosl -o <symbols> -l
 * <load> <addresses...>` with the module's symbols from the extracted zip (a `<module>*.dSYM`
 * folder's `Contents/Resources/DWARF/<module>`, or a `<module>*.dsym` file), and every
 * `<load> + <offset>` is replaced by the symbol atos printed for it. When atos answers a
 * different number of lines, the addresses are asked one at a time.
 */
import fs from 'node:fs'
import path from 'node:path'
import type { Resolution } from '../sourcemap/resolver.js'
import type { ToolRunner } from './run-tool.js'

const FRAME = /(\S+)\s+(0x[0-9a-fA-F]+)\s+((0x[0-9a-fA-F]+)\s*\+\s*(\d+|0x[0-9a-fA-F]+))/g

interface Frame {
  address: string
  text: string
}

/** module → load address → frames. */
export function scanFrames(stack: string): Map<string, Map<string, Frame[]>> {
  const out = new Map<string, Map<string, Frame[]>>()
  for (const m of stack.matchAll(FRAME)) {
    const byLoad = out.get(m[1]) ?? new Map<string, Frame[]>()
    out.set(m[1], byLoad)
    const list = byLoad.get(m[4]) ?? []
    byLoad.set(m[4], list)
    list.push({ address: m[2], text: m[3] })
  }
  return out
}

export async function iosCrash(
  dir: string,
  stack: string,
  atos: string,
  runner: ToolRunner,
): Promise<Resolution> {
  if (!atos)
    return { status: 'no-tool', reason: 'the path of atos/atosl bin not set', mapped: null }
  if (!fs.statSync(atos, { throwIfNoEntry: false })?.isFile())
    return { status: 'no-tool', reason: `the atos tool/atosl not found [${atos}]`, mapped: null }
  let mapped = stack
  for (const [module, byLoad] of scanFrames(stack)) {
    const symbols = symbolFile(dir, module)
    if (!symbols) continue
    for (const [load, frames] of byLoad) {
      const names = await symbolicate(runner, atos, symbols, load, frames)
      frames.forEach((f, i) => {
        if (names[i] !== undefined) mapped = mapped.replaceAll(f.text, names[i] as string)
      })
    }
  }
  return { status: 'success', reason: '', mapped }
}

async function symbolicate(
  runner: ToolRunner,
  atos: string,
  symbols: string,
  load: string,
  frames: Frame[],
): Promise<(string | undefined)[]> {
  const ask = async (addrs: string[]) => {
    const r = await runner.run(atos, ['-o', symbols, '-l', load, ...addrs], '')
    if (!r.ok) return null
    return r.stdout
      .replace(/\r\n?/g, '\n')
      .replace(/^\n+|\n+$/g, '')
      .split('\n')
  }
  const all = await ask(frames.map((f) => f.address))
  if (!all) return []
  if (all.length === frames.length) return all
  if (frames.length === 1) return []
  const one: (string | undefined)[] = []
  for (const f of frames) {
    const r = await ask([f.address])
    one.push(r?.length === 1 ? r[0] : undefined)
  }
  return one
}

/** The module's symbols under `dir`, searched breadth first. */
function symbolFile(dir: string, module: string): string | null {
  const queue = [dir]
  for (let q = queue.shift(); q !== undefined; q = queue.shift()) {
    const entries = fs.readdirSync(q, { withFileTypes: true, encoding: 'utf8' })
    for (const e of entries) {
      const full = path.join(q, e.name)
      if (e.name.startsWith(module) && e.name.toLowerCase().endsWith('.dsym')) {
        if (e.isFile()) return full
        const dwarf = path.join(full, 'Contents', 'Resources', 'DWARF', module)
        if (e.isDirectory() && fs.statSync(dwarf, { throwIfNoEntry: false })?.isFile()) return dwarf
      }
      if (e.isDirectory()) queue.push(full)
    }
  }
  return null
}
