/**
 * The Android and iOS side of the source map resolver: the zip is extracted (extract.ts) and
 * the stack handed to the configured tool by the point's `error_type` (`java_crash`,
 * `native_crash`) or platform. Tools run bounded in number and time (run-tool.ts); a tool
 * not configured is `no-tool`, an error type with no symbolicator is left alone (`error`).
 */
import path from 'node:path'
import type { ZipBudget } from '../zip/bounded.js'
import {
  refusedZip,
  shownName,
  type NativeResolve,
  type Resolution,
} from '../sourcemap/resolver.js'
import { javaCrash, nativeCrash } from './android.js'
import { Extractor } from './extract.js'
import { iosCrash } from './ios.js'
import { ToolRunner, type ToolLimits } from './run-tool.js'

/** The reference's config names: `android_cmdline_home`, `proguard_home`, `ndk_home`, `atos_bin_path`. */
export interface SymbolTools extends ToolLimits {
  androidCmdlineHome: string
  proguardHome: string
  ndkHome: string
  atosBinPath: string
  /** What one symbol zip may inflate to (entries stream to disk). */
  zip: ZipBudget
}

export function configured(t: SymbolTools): boolean {
  return Boolean(t.androidCmdlineHome || t.proguardHome || t.ndkHome || t.atosBinPath)
}

export function nativeResolver(t: SymbolTools): NativeResolve {
  const runner = new ToolRunner(t)
  const extractor = new Extractor(t.zip)
  const android = {
    cmdlineHome: t.androidCmdlineHome,
    proguardHome: t.proguardHome,
    ndkHome: t.ndkHome,
  }
  return async (platform, zip, input): Promise<Resolution> => {
    const shown = shownName(platform, path.basename(zip))
    const x = await extractor.extracted(zip)
    if ('missing' in x)
      return { status: 'no-zip', reason: `source map file [${shown}] not exists`, mapped: null }
    if ('refused' in x) return refusedZip(shown, x.refused.reason, x.refused.fresh)
    const dir = x.dir
    if (platform === 'ios') return iosCrash(dir, input.stack, t.atosBinPath, runner)
    if (input.errorType === 'java_crash') return javaCrash(dir, input.stack, android, runner)
    if (input.errorType === 'native_crash') return nativeCrash(dir, input.stack, android, runner)
    return {
      status: 'error',
      reason: `no symbolicator for error_type [${input.errorType ?? ''}]`,
      mapped: null,
    }
  }
}
