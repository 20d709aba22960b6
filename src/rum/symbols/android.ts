/**
 * Android stacks, as the reference symbolicates them. `java_crash`: `mapping.txt` of the
 * extracted zip through R8's `retrace` (`<android_cmdline_home>/bin/retrace`) when one of its
 * first ten lines is a `#` comment naming R8, else ProGuard's `<proguard_home>/bin/retrace.sh`,
 * both run with `sh`, the stack on stdin, the tool's prompt line trimmed. `native_crash`:
 * `<ndk_home>/ndk-stack --sym <dir>/<abi>` (the first supported ABI of the `ABI list:` or
 * `ABI:` line), its frames from `#00` on spliced between the stack's `backtrace:` and
 * `logcat:`.
 */
import fs from 'node:fs'
import path from 'node:path'
import type { Resolution } from '../sourcemap/resolver.js'
import type { ToolRunner } from './run-tool.js'

export interface AndroidTools {
  cmdlineHome: string
  proguardHome: string
  ndkHome: string
}

const ABIS = new Set(['armeabi-v7a', 'arm64-v8a', 'x86', 'x86_64'])

const noTool = (reason: string): Resolution => ({ status: 'no-tool', reason, mapped: null })
const failed = (reason: string): Resolution => ({ status: 'error', reason, mapped: null })
const noZip = (reason: string): Resolution => ({ status: 'no-zip', reason, mapped: null })

export async function javaCrash(
  dir: string,
  stack: string,
  tools: AndroidTools,
  runner: ToolRunner,
): Promise<Resolution> {
  const mapping = path.join(dir, 'mapping.txt')
  const head = await readHead(mapping)
  if (head === null) return noZip(`java source mapping file [${mapping}] not exists`)
  const r8 = head.some(
    (l) =>
      l.startsWith('#') &&
      (l.includes('compiler: R8') || l.includes('com.android.tools.r8.mapping')),
  )
  const [home, tool, what] = r8
    ? [
        tools.cmdlineHome,
        path.join(tools.cmdlineHome, 'bin', 'retrace'),
        'android commandline tool',
      ]
    : [tools.proguardHome, path.join(tools.proguardHome, 'bin', 'retrace.sh'), 'proguard']
  if (!home) return noTool(`${what} home not set`)
  if (!isFile(tool)) return noTool(`retrace tool [${tool}] not found`)
  const run = await runner.run('sh', [tool, mapping], stack)
  if (!run.ok) return failed(`run retrace fail: ${run.error}`)
  const mapped = run.stdout
    .replace(/^Waiting for stack-trace input\.\.\./, '')
    .replace(/^[\r\n]+/, '')
  return { status: 'success', reason: '', mapped }
}

export async function nativeCrash(
  dir: string,
  stack: string,
  tools: AndroidTools,
  runner: ToolRunner,
): Promise<Resolution> {
  if (!tools.ndkHome) return noTool('android ndk home not set')
  const ndkStack = path.join(tools.ndkHome, 'ndk-stack')
  if (!isFile(ndkStack))
    return noTool(`ndk-stack command tool not found in the NDK HOME [${ndkStack}]`)
  const abi = scanAbi(stack)
  if (!abi) return failed('no valid NDK ABI found')
  const symbols = path.join(dir, abi)
  if (!fs.statSync(symbols, { throwIfNoEntry: false })?.isDirectory())
    return noZip(`expected native objects dir [${symbols}] not found`)
  const run = await runner.run(ndkStack, ['--sym', symbols], stack)
  if (!run.ok) return failed(`run ndk-stack tool fail: ${run.error}`)
  let frames = run.stdout
  const first = /\s#00\s+/.exec(frames)
  if (first) frames = frames.slice(first.index)
  frames = frames.replaceAll('Crash dump is completed', '')
  const bt = /backtrace:[\s\S]+?logcat:/.exec(stack)
  const mapped = bt ? stack.replace(bt[0], () => `backtrace:\n${frames}logcat:`) : frames
  return { status: 'success', reason: '', mapped }
}

/** The first supported ABI named on the `ABI list:` (or else `ABI:`) line. */
export function scanAbi(report: string): string | null {
  for (const label of ['ABI list:', 'ABI:']) {
    const at = report.indexOf(label)
    if (at < 0) continue
    const eol = report.slice(at).search(/[\r\n]/)
    if (eol < 0) continue
    const value = report
      .slice(at + label.length, at + eol)
      .trim()
      .replace(/^'+|'+$/g, '')
    const found = value.split(',').find((a) => ABIS.has(a))
    if (found) return found
  }
  return null
}

async function readHead(file: string): Promise<string[] | null> {
  const fh = await fs.promises.open(file, 'r').catch(() => null)
  if (!fh) return null
  try {
    const buf = Buffer.alloc(64 * 1024)
    const { bytesRead } = await fh.read(buf, 0, buf.length, 0)
    return buf.subarray(0, bytesRead).toString('utf8').split(/\r?\n/).slice(0, 10)
  } finally {
    await fh.close()
  }
}

function isFile(p: string): boolean {
  return fs.statSync(p, { throwIfNoEntry: false })?.isFile() ?? false
}
