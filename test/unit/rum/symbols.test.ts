/**
 * Android and iOS symbolication through external tools, played here by shell scripts this
 * test writes: R8 and ProGuard retrace chosen by the mapping's header, ndk-stack spliced
 * between `backtrace:` and `logcat:`, atos per module and load address; `no-tool` when a tool
 * is not configured; a tool that hangs is killed at its time limit; runs beyond the
 * concurrency wait their turn; zip entries leaving the folder are not extracted.
 */
import assert from 'node:assert/strict'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { after, test } from 'node:test'
import { strToU8, zipSync } from 'fflate'
import { SourceMapResolver } from '../../../src/rum/sourcemap/resolver.js'
import { nativeResolver, type SymbolTools } from '../../../src/rum/symbols/native.js'
import { ToolRunner } from '../../../src/rum/symbols/run-tool.js'
import { scanAbi } from '../../../src/rum/symbols/android.js'

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-sym-'))
after(() => fs.rmSync(root, { recursive: true, force: true }))
const rum = path.join(root, 'rum')

function script(rel: string, body: string): string {
  const file = path.join(root, 'tools', rel)
  fs.mkdirSync(path.dirname(file), { recursive: true })
  fs.writeFileSync(file, `#!/bin/sh\n${body}\n`, { mode: 0o755 })
  return file
}

function putZip(platform: string, name: string, entries: Record<string, string>): void {
  fs.mkdirSync(path.join(rum, platform), { recursive: true })
  const files = Object.fromEntries(Object.entries(entries).map(([k, v]) => [k, strToU8(v)]))
  fs.writeFileSync(path.join(rum, platform, name), zipSync(files))
}

// R8's retrace prints a prompt, then the stack with obfuscated names restored.
script(
  'cmdline/bin/retrace',
  `echo 'Waiting for stack-trace input...'; sed 's/a\\.b\\.c/com.shop.Cart/'`,
)
script(
  'proguard/bin/retrace.sh',
  `echo 'Waiting for stack-trace input...'; sed 's/a\\.b\\.c/proguard.Cart/'`,
)
script(
  'ndk/ndk-stack',
  `[ "$1" = --sym ] && [ -f "$2/libshop.so" ] || exit 3
cat >/dev/null
printf '********** Crash dump: **********\\n  #00 0x100 libshop.so (Cart::add()+8)\\nCrash dump is completed\\n'`,
)
// atosl: one symbol per address given after `-o <file> -l <load>`.
script('atosl', `shift 4; for a in "$@"; do echo "sym_$a (in Shop)"; done`)
const hang = script('hang', 'sleep 30')

const tools: SymbolTools = {
  androidCmdlineHome: path.join(root, 'tools', 'cmdline'),
  proguardHome: path.join(root, 'tools', 'proguard'),
  ndkHome: path.join(root, 'tools', 'ndk'),
  atosBinPath: path.join(root, 'tools', 'atosl'),
  timeoutMs: 5_000,
  concurrency: 2,
  zip: { maxBytes: 1 << 24, maxEntries: 1_000 },
}

putZip('android', 'r8-prod-1.0.zip', {
  'mapping.txt': '# compiler: R8\n# compiler_version: 8.1\ncom.shop.Cart -> a.b.c:\n',
  'arm64-v8a/libshop.so': 'ELF',
  '../escape.txt': 'outside',
})
putZip('android', 'pg-prod-1.0.zip', { 'mapping.txt': 'com.shop.Cart -> a.b.c:\n' })
putZip('ios', 'ios-prod-1.0.zip', { 'Shop.app.dSYM/Contents/Resources/DWARF/Shop': 'DWARF' })

const resolver = (t: SymbolTools | null) =>
  new SourceMapResolver({
    root: rum,
    maxZips: 2,
    maxBytes: 1 << 20,
    recheckMs: 0,
    ...{ maxEntries: 100_000, zipBytes: 1 << 24, zipEntries: 1_000, waitMs: 10_000 },
    native: t ? nativeResolver(t) : undefined,
  })
const input = (appId: string, sdk: string, stack: string, errorType = '') => ({
  stack,
  appId,
  env: 'prod',
  version: '1.0',
  sdkName: sdk,
  errorType,
})

test('java crashes: R8 or ProGuard retrace by the mapping header, prompt trimmed', async () => {
  const r = resolver(tools)
  const stack = 'java.lang.NullPointerException\n\tat a.b.c.add(SourceFile:12)\n'
  const r8 = await r.resolve(input('r8', 'df_android_rum_sdk', stack, 'java_crash'))
  assert.deepEqual(r8, {
    status: 'success',
    reason: '',
    mapped: 'java.lang.NullPointerException\n\tat com.shop.Cart.add(SourceFile:12)\n',
  })
  const pg = await r.resolve(input('pg', 'df_android_rum_sdk', stack, 'java_crash'))
  assert.equal(pg.mapped, 'java.lang.NullPointerException\n\tat proguard.Cart.add(SourceFile:12)\n')
  assert.equal(fs.existsSync(path.join(rum, 'android', 'escape.txt')), false)
  assert.equal(fs.existsSync(path.join(root, 'escape.txt')), false)
})

test('native crashes: ndk-stack for the ABI, spliced between backtrace: and logcat:', async () => {
  // As the reference: ndk-stack's output from the whitespace before `#00`, its closing line cut.
  const stack =
    "ABI: 'arm64'\nABI list: 'arm64-v8a,x86'\nbacktrace:\n  #00 pc 0x100 libshop.so\nlogcat:\nI/x: y\n"
  const r = await resolver(tools).resolve(input('r8', 'df_android_rum_sdk', stack, 'native_crash'))
  assert.equal(r.status, 'success')
  assert.equal(
    r.mapped,
    "ABI: 'arm64'\nABI list: 'arm64-v8a,x86'\nbacktrace:\n #00 0x100 libshop.so (Cart::add()+8)\n\nlogcat:\nI/x: y\n",
  )
  assert.equal(scanAbi("ABI: 'arm64-v8a'\n"), 'arm64-v8a')
  assert.equal(scanAbi("ABI: 'mips'\n"), null)
})

test('iOS: atos per module and load address, each load + offset replaced', async () => {
  const stack =
    '0 Shop 0x0000000102a1c000 0x102a00000 + 114688\n1 Shop 0x0000000102a1d000 0x102a00000 + 118784\n2 libsystem 0x1 0x0 + 1\n'
  const r = await resolver(tools).resolve(input('ios', 'df_ios_rum_sdk', stack))
  assert.deepEqual(r, {
    status: 'success',
    reason: '',
    mapped:
      '0 Shop 0x0000000102a1c000 sym_0x0000000102a1c000 (in Shop)\n1 Shop 0x0000000102a1d000 sym_0x0000000102a1d000 (in Shop)\n2 libsystem 0x1 0x0 + 1\n',
  })
})

test('no tool configured is no-tool; so is a tool missing from its home', async () => {
  const stack = '\tat a.b.c.add(SourceFile:12)'
  const none = await resolver(null).resolve(input('r8', 'df_android_rum_sdk', stack, 'java_crash'))
  assert.equal(none.status, 'no-tool')
  const noNdk = { ...tools, ndkHome: '' }
  const n = await resolver(noNdk).resolve(
    input('r8', 'df_android_rum_sdk', 'ABI: arm64-v8a\n', 'native_crash'),
  )
  assert.deepEqual(n, { status: 'no-tool', reason: 'android ndk home not set', mapped: null })
  const noAtos = { ...tools, atosBinPath: path.join(root, 'tools', 'missing') }
  const i = await resolver(noAtos).resolve(input('ios', 'df_ios_rum_sdk', 'x'))
  assert.equal(i.status, 'no-tool')
  const missing = await resolver(tools).resolve(
    input('nope', 'df_android_rum_sdk', stack, 'java_crash'),
  )
  assert.equal(missing.status, 'no-zip')
})

test('a tool that hangs is killed at its time limit and counted as an error', async () => {
  const runner = new ToolRunner({ timeoutMs: 200, concurrency: 1 })
  const r = await runner.run(hang, [], '')
  assert.deepEqual(r, { ok: false, stdout: '', error: 'timed out after 200 ms' })
})

test('runs beyond the concurrency wait their turn', async () => {
  const log = path.join(root, 'turns.log')
  const turn = script('turn', `echo "start $1" >> ${log}; sleep 0.2; echo "end $1" >> ${log}`)
  const runner = new ToolRunner({ timeoutMs: 5_000, concurrency: 1 })
  await Promise.all(['a', 'b', 'c'].map((x) => runner.run(turn, [x], '')))
  assert.deepEqual(fs.readFileSync(log, 'utf8').trim().split('\n'), [
    'start a',
    'end a',
    'start b',
    'end b',
    'start c',
    'end c',
  ])
})
