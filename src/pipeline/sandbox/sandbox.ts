/**
 * One QuickJS runtime (one per decode worker). Scripts are JavaScript functions defined in
 * the context; the library runs on the host and is reached through one bridge function.
 *
 * Invariants:
 * - A script run is bounded: memory (runtime limit), stack, and wall time per batch
 *   (interrupt handler). Hitting a limit fails the batch, never the worker.
 * - After such a failure the runtime is thrown away and rebuilt before the next run, so no
 *   half-finished state leaks into the next batch.
 * - Every handle created here is disposed before returning.
 */
import {
  newQuickJSWASMModuleFromVariant,
  type QuickJSContext,
  type QuickJSHandle,
  type QuickJSRuntime,
  type QuickJSWASMModule,
} from 'quickjs-emscripten-core'
import variant from '@jitl/quickjs-wasmfile-release-sync'
import { prelude } from './prelude.js'

export interface SandboxLimits {
  memoryBytes: number
  stackBytes: number
  batchTimeoutMs: number
}

/** The host side of the bridge: function index, dumped arguments, selected point (-1: all). */
export type HostCall = (fn: number, args: unknown[], index: number) => unknown

export class SandboxFault extends Error {}

/** The time the prelude may take in a fresh runtime, whatever the scripts' limit. */
const PRELUDE_MS = 10_000

/**
 * 64-bit integers cross the bridge exactly: past 2^53 they are BigInts in the sandbox and
 * bigints on the host, and inside JSON (maps, lists) the carrier `{"$big": "<digits>"}`
 * (the prelude gives BigInt a toJSON writing it, and reads it back).
 */
function bigToJson(_k: string, v: unknown): unknown {
  if (typeof v !== 'bigint') return v
  return Number.isSafeInteger(Number(v)) ? Number(v) : { $big: v.toString() }
}

function reviveBig(v: unknown): unknown {
  if (v === null || typeof v !== 'object') return v
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) v[i] = reviveBig(v[i])
    return v
  }
  const o = v as Record<string, unknown>
  if (typeof o.$big === 'string' && Object.keys(o).length === 1) return BigInt(o.$big)
  for (const k of Object.keys(o)) o[k] = reviveBig(o[k])
  return o
}

let modulePromise: Promise<QuickJSWASMModule> | null = null
function loadModule(): Promise<QuickJSWASMModule> {
  // The variant package's default export is the variant; its typings describe the module.
  return (modulePromise ??= newQuickJSWASMModuleFromVariant(
    variant as unknown as Parameters<typeof newQuickJSWASMModuleFromVariant>[0],
  ))
}

export class Sandbox {
  private rt: QuickJSRuntime | null = null
  private vm: QuickJSContext | null = null
  private deadline = 0
  private defined = new Map<string, string>()

  private constructor(
    private readonly mod: QuickJSWASMModule,
    private readonly limits: SandboxLimits,
    private readonly names: string[],
    private readonly host: HostCall,
  ) {}

  static async create(limits: SandboxLimits, names: string[], host: HostCall): Promise<Sandbox> {
    return new Sandbox(await loadModule(), limits, names, host)
  }

  private context(): QuickJSContext {
    if (this.vm) return this.vm
    const rt = this.mod.newRuntime()
    rt.setMemoryLimit(this.limits.memoryBytes)
    rt.setMaxStackSize(this.limits.stackBytes)
    rt.setInterruptHandler(() => Date.now() > this.deadline)
    const vm = rt.newContext()
    const bridge = vm.newFunction('$host', (fn, args, index) => this.bridge(vm, fn, args, index))
    vm.setProp(vm.global, '$host', bridge)
    bridge.dispose()
    this.rt = rt
    this.vm = vm
    // The prelude is ours, not a script's: on a loaded machine its first run in a fresh
    // runtime can take longer than a short batch_timeout, which must not fail the script.
    this.deadline = Date.now() + Math.max(this.limits.batchTimeoutMs, PRELUDE_MS)
    this.evalOrThrow(prelude(this.names), 'prelude.js')
    this.defined.clear()
    return vm
  }

  private bridge(
    vm: QuickJSContext,
    fn: QuickJSHandle,
    args: QuickJSHandle,
    index: QuickJSHandle,
  ): QuickJSHandle {
    const r = this.host(
      vm.getNumber(fn),
      reviveBig(vm.dump(args)) as unknown[],
      vm.getNumber(index),
    )
    switch (typeof r) {
      case 'string':
        return vm.newString(r)
      case 'number':
        return vm.newNumber(r)
      case 'boolean':
        return r ? vm.true : vm.false
      case 'bigint':
        // Only integers past 2^53 are BigInts in the sandbox; smaller ones stay numbers.
        return Number.isSafeInteger(Number(r)) ? vm.newNumber(Number(r)) : vm.newBigInt(r)
      case 'undefined':
        return vm.undefined
      default: {
        if (r === null) return vm.null
        const o = vm.newObject()
        const json = vm.newString(JSON.stringify(r, bigToJson))
        vm.setProp(o, '$json', json)
        json.dispose()
        return o
      }
    }
  }

  private evalOrThrow(code: string, file: string): void {
    const vm = this.vm!
    const r = vm.evalCode(code, file)
    if (r.error) {
      const err = vm.dump(r.error) as { message?: string; stack?: string; name?: string }
      r.error.dispose()
      throw new SandboxFault(
        `${err?.name ?? 'Error'}: ${err?.message ?? String(err)}${err?.stack ? '\n' + err.stack : ''}`,
      )
    }
    r.value.dispose()
  }

  /** Defines (or redefines) a script; a syntax error throws with QuickJS's message. */
  define(id: string, js: string, file: string): void {
    this.context()
    if (this.defined.get(id) === js) return
    this.deadline = Date.now() + this.limits.batchTimeoutMs
    this.evalOrThrow(`$define(${JSON.stringify(id)}, function () {${js}\n})`, file)
    this.defined.set(id, js)
  }

  isDefined(id: string): boolean {
    return this.vm !== null && this.defined.has(id)
  }

  /**
   * Runs a script over `n` points. Returns per-point script errors (point mode); throws
   * SandboxFault when the whole run failed (limit hit, uncaught error in batch mode).
   */
  run(id: string, n: number, batch: boolean): Map<number, string> {
    const vm = this.context()
    this.deadline = Date.now() + this.limits.batchTimeoutMs
    const code = `$run(${JSON.stringify(id)}, ${n}, ${batch})`
    const r = vm.evalCode(code, 'run.js')
    if (r.error) {
      const err = vm.dump(r.error) as { message?: string; name?: string } | string
      r.error.dispose()
      const message =
        typeof err === 'string' ? err : `${err?.name ?? 'Error'}: ${err?.message ?? ''}`
      this.reset()
      throw new SandboxFault(message)
    }
    const out = new Map<number, string>()
    if (vm.typeof(r.value) === 'string') {
      const list = JSON.parse(vm.getString(r.value)) as (number | string)[]
      for (let i = 0; i < list.length; i += 2) out.set(list[i] as number, list[i + 1] as string)
    }
    r.value.dispose()
    if ([...out.values()].some((m) => /out of memory|stack overflow/.test(m))) this.reset()
    return out
  }

  /** Drops the runtime; the next call builds a fresh one (scripts are defined again). */
  reset(): void {
    const vm = this.vm
    const rt = this.rt
    this.vm = null
    this.rt = null
    this.defined.clear()
    try {
      vm?.dispose()
      rt?.dispose()
    } catch {
      // A runtime stopped mid-allocation may refuse a clean free; it is unreachable now.
    }
  }

  dispose(): void {
    this.reset()
  }
}
