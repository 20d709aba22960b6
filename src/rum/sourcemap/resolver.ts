/**
 * One resolver for RUM ingestion and `GET /v1/sourcemap/check`: finds the zip for a stack's
 * app, env and version, and maps web and miniapp stacks through it. Android and iOS stacks
 * need external symbol tools (`../symbols/native.ts`); without them they are counted `no-tool`.
 */
import { SourceMapCache, type CacheLimits } from './cache.js'
import { platformOfSdk, zipName, zipPath, illegalNameMessage, type Platform } from './names.js'
import { resolveWebStack } from './web.js'

export type SourceMapStatus = 'success' | 'lack-field' | 'error' | 'no-tool' | 'no-zip'

export interface StackInput {
  stack: string
  appId: string
  env: string
  version: string
  sdkName: string
  /** Fields a native resolver reads (`error_type`); absent for web. */
  errorType?: string
}

export interface Resolution {
  status: SourceMapStatus
  /** '' on success; else why (the reference's texts). */
  reason: string
  /** The mapped stack; null when nothing was mapped. */
  mapped: string | null
  /**
   * Set by the one resolution whose load found the zip over its budget (later ones are
   * answered from the cache of failures): the zip as `<platform>/<name>`, and why.
   */
  refused?: { zip: string; reason: string }
}

/** A zip as answers and logs name it: under the RUM folder, never the server's full path. */
export function shownName(platform: string, name: string): string {
  return `${platform}/${name}`
}

export function refusedZip(zip: string, reason: string, fresh: boolean): Resolution {
  return {
    status: 'error',
    reason: `source map zip [${zip}] refused: ${reason}`,
    mapped: null,
    refused: fresh ? { zip, reason } : undefined,
  }
}

/** Symbolicates one Android or iOS stack; null when its tool is not configured. */
export type NativeResolve = (
  platform: 'android' | 'ios',
  dir: string,
  input: StackInput,
) => Promise<Resolution | null>

export interface ResolverOptions extends CacheLimits {
  root: string
  native?: NativeResolve
}

export class SourceMapResolver {
  readonly cache: SourceMapCache

  constructor(private readonly opts: ResolverOptions) {
    this.cache = new SourceMapCache(opts)
  }

  async resolve(i: StackInput): Promise<Resolution> {
    if (!i.stack || !i.appId) return { status: 'lack-field', reason: 'lack field', mapped: null }
    const platform = platformOfSdk(i.sdkName)
    const name = zipName(i.appId, i.env, i.version)
    if (platform === 'android' || platform === 'ios') return this.native(platform, name, i)
    let r = await this.web(platform, name, i.stack)
    if (platform === 'miniapp' && r.status === 'no-zip') r = await this.web('web', name, i.stack)
    return r
  }

  private async web(platform: Platform, name: string, stack: string): Promise<Resolution> {
    const file = zipPath(this.opts.root, platform, name)
    if (!file) return { status: 'error', reason: illegalNameMessage(name), mapped: null }
    const loaded = await this.cache.get(file)
    if ('missing' in loaded)
      return {
        status: 'no-zip',
        reason: `source map file [${shownName(platform, name)}] not exists`,
        mapped: null,
      }
    if ('error' in loaded) return { status: 'error', reason: loaded.error, mapped: null }
    if ('refused' in loaded)
      return refusedZip(shownName(platform, name), loaded.refused.reason, loaded.refused.fresh)
    const r = await resolveWebStack(stack, loaded.maps)
    const changed = r.stack !== stack
    return {
      status: r.reason === '' || changed ? 'success' : 'error',
      reason: r.reason,
      mapped: changed || r.reason === '' ? r.stack : null,
    }
  }

  private async native(
    platform: 'android' | 'ios',
    name: string,
    i: StackInput,
  ): Promise<Resolution> {
    const file = zipPath(this.opts.root, platform, name)
    if (!file) return { status: 'error', reason: illegalNameMessage(name), mapped: null }
    const r = this.opts.native ? await this.opts.native(platform, file, i) : null
    return (
      r ?? { status: 'no-tool', reason: `no symbol tool configured for ${platform}`, mapped: null }
    )
  }

  close(): void {
    this.cache.clear()
  }
}
