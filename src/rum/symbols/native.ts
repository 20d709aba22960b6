/**
 * The Android and iOS side of the source map resolver: the zip is extracted (extract.ts) and
 * the stack handed to the configured tool by the point's `error_type` (`java_crash`,
 * `native_crash`) or platform. Tools run bounded in number and time (run-tool.ts); a tool
 * not configured is `no-tool`, an error type with no symbolicator is left alone (`error`).
 */
import type { NativeResolve, Resolution } from '../sourcemap/resolver.js'
import { javaCrash, nativeCrash } from './android.js'
import { extracted } from './extract.js'
import { iosCrash } from './ios.js'
import { ToolRunner, type ToolLimits } from './run-tool.js'

/** The reference's config names: `android_cmdline_home`, `proguard_home`, `ndk_home`, `atos_bin_path`. */
export interface SymbolTools extends ToolLimits {
  androidCmdlineHome: string
  proguardHome: string
  ndkHome: string
  atosBinPath: string
}

export function configured(t: SymbolTools): boolean {
  return Boolean(t.androidCmdlineHome || t.proguardHome || t.ndkHome || t.atosBinPath)
}

export function nativeResolver(t: SymbolTools): NativeResolve {
  const runner = new ToolRunner(t)
  const android = {
    cmdlineHome: t.androidCmdlineHome,
    proguardHome: t.proguardHome,
    ndkHome: t.ndkHome,
  }
  return async (platform, zip, input): Promise<Resolution> => {
    const dir = await extracted(zip)
    if (!dir)
      return { status: 'no-zip', reason: `source map file [${zip}] not exists`, mapped: null }
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
