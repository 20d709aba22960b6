/**
 * Where source map zips live and how their names are made safe, as the reference agent does:
 * `<root>/<platform>/<app_id>-<env|none>-<version|none>.zip`, separators replaced by `__`, and
 * a name that would still leave its folder refused with the reference's message.
 */
import path from 'node:path'

export const PLATFORMS = ['web', 'miniapp', 'android', 'ios'] as const
export type Platform = (typeof PLATFORMS)[number]

/** The reference accepts only these for upload and delete, although its message names four. */
export const UPLOAD_PLATFORMS: readonly string[] = ['web', 'android', 'ios']

export function zipName(appId: string, env: string, version: string): string {
  const name = `${appId}-${env || 'none'}-${version || 'none'}.zip`
  return name.replaceAll('/', '__').replaceAll('\\', '__')
}

/** The zip's path under `root/platform`, or null when the name would escape that folder. */
export function zipPath(root: string, platform: string, name: string): string | null {
  const dir = path.resolve(root, platform)
  const full = path.resolve(dir, name)
  if (path.dirname(full) !== dir || name === '..' || name === '.') return null
  return full
}

export function illegalNameMessage(name: string): string {
  // Two spaces before the quote, as the reference writes it.
  return `invalid file name [${name}], should not contain illegal char, such as  '../, /'`
}

/** A zip entry name that stays inside its archive: not absolute, no `..` segment. */
export function safeEntryName(name: string): string | null {
  if (name.includes('\0')) return null
  const clean = path.posix.normalize(name.replaceAll('\\', '/'))
  if (clean.startsWith('/') || clean === '..' || clean.startsWith('../')) return null
  if (/^[A-Za-z]:/.test(clean)) return null
  return clean
}

/** The platform folder an SDK's errors are resolved from. */
export function platformOfSdk(sdkName: string): Platform {
  switch (sdkName) {
    case 'df_miniapp_rum_sdk':
    case 'df_uniapp_rum_sdk':
      return 'miniapp'
    case 'df_android_rum_sdk':
      return 'android'
    case 'df_ios_rum_sdk':
      return 'ios'
    default:
      return 'web'
  }
}
