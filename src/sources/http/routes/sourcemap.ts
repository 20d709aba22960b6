/**
 * `PUT|DELETE /v1/sourcemap` and `GET /v1/sourcemap/check` (spec 4.5-4.7), with the
 * reference's checks in its order and its texts. Every outcome is 200 with the envelope
 * `{content, errorMsg, success}`. Uploads stream to a temporary file beside the target
 * (100 MiB at most), are fsynced and renamed over it: a reader never sees half a zip.
 */
import { createWriteStream, promises as fs } from 'node:fs'
import path from 'node:path'
import { pipeline } from 'node:stream/promises'
import type { Context, Hono } from 'hono'
import { FerryError } from '../../../errors.js'
import type { HttpDeps, HttpEnv, RumDeps } from '../deps.js'
import { parseMultipart } from './multipart.js'
import {
  UPLOAD_PLATFORMS,
  illegalNameMessage,
  zipName,
  zipPath,
} from '../../../rum/sourcemap/names.js'
import { shownName } from '../../../rum/sourcemap/resolver.js'

const MAX_UPLOAD = 100 * 1024 * 1024
const TEXT = { 'Content-Type': 'text/plain; charset=utf-8' }
const JSON_TYPE = { 'Content-Type': 'application/json;charset=utf-8' }

function envelope(content: unknown, errorMsg: string, headers = TEXT): Response {
  const body = { content: errorMsg ? null : content, errorMsg, success: !errorMsg }
  return new Response(JSON.stringify(body), { status: 200, headers })
}

/** Every refusal of these routes is an envelope, never an error status. */
const refused = (message: string) => new FerryError('badRequest', message)

/** The checks PUT and DELETE share; returns the zip's path or throws the reason. */
function target(deps: HttpDeps, rum: RumDeps, q: URLSearchParams): string {
  const up = deps.upstream()
  if (!up) throw refused('invalid token: dataway is not initialized')
  if (!up.token) throw refused('invalid token: dataway token is not set')
  if (q.get('token') !== up.token) throw refused('invalid token: token is missing or not correct')
  const appId = q.get('app_id') ?? ''
  if (!appId) throw refused('app_id not found')
  const platform = q.get('platform') || 'web'
  if (!UPLOAD_PLATFORMS.includes(platform))
    throw refused(`platform [${platform}] not supported, please use web, miniapp, android or ios`)
  const name = zipName(appId, q.get('env') ?? '', q.get('version') ?? '')
  const file = zipPath(rum.root, platform, name)
  if (!file) throw refused(illegalNameMessage(name))
  return file
}

async function upload(
  c: Context<HttpEnv>,
  deps: HttpDeps,
  rum: RumDeps,
  file: string,
): Promise<Response> {
  const dir = path.dirname(file)
  await fs.mkdir(dir, { recursive: true }).catch((e: NodeJS.ErrnoException) => {
    throw refused(`create rum dir [${path.basename(dir)}] failed: ${e.code ?? e.message}`)
  })
  const tmp = path.join(dir, `.${path.basename(file)}.${process.pid}.${Date.now()}.tmp`)
  try {
    const parts = await parseMultipart(c.req.raw, MAX_UPLOAD, async (field, stream) => {
      if (field !== 'file') return void stream.resume()
      await pipeline(stream, createWriteStream(tmp, { mode: 0o644 }))
    })
    if (!parts.file) throw refused('http: no such file')
    const fh = await fs.open(tmp, 'r+')
    await fh.sync().finally(() => fh.close())
    await fs.rename(tmp, file)
  } catch (e) {
    await fs.rm(tmp, { force: true })
    throw e instanceof FerryError ? e : refused((e as Error).message)
  }
  rum.events.sourceMapStored(path.basename(dir), 'uploaded', file, await zipCount(dir))
  return envelope(`uploaded to [${shown(file)}]!`, '')
}

async function remove(rum: RumDeps, file: string): Promise<Response> {
  try {
    await fs.rm(file)
  } catch (e) {
    const err = e as NodeJS.ErrnoException
    const msg = `remove ${shown(file)}: ${err.code === 'ENOENT' ? 'no such file or directory' : (err.code ?? err.message)}`
    throw refused(`delete sourcemap file [${shown(file)}] failed: ${msg}`)
  }
  rum.resolver.cache.drop(file)
  rum.events.sourceMapStored(
    path.basename(path.dirname(file)),
    'deleted',
    file,
    await zipCount(path.dirname(file)),
  )
  return envelope(`deleted [${shown(file)}]!`, '')
}

/**
 * A stored zip as answers name it, `<platform>/<name>`: the reference shows the server's full
 * path, which tells any client where the agent keeps its data.
 */
function shown(file: string): string {
  return shownName(path.basename(path.dirname(file)), path.basename(file))
}

async function zipCount(dir: string): Promise<number> {
  return (await fs.readdir(dir).catch(() => [])).filter((f) => f.endsWith('.zip')).length
}

const SDK_OF: Record<string, string> = {
  android: 'df_android_rum_sdk',
  ios: 'df_ios_rum_sdk',
  miniapp: 'df_miniapp_rum_sdk',
}

async function check(rum: RumDeps, q: URLSearchParams): Promise<Response> {
  const stack = q.get('error_stack') ?? ''
  const sdkName = SDK_OF[q.get('platform') ?? ''] ?? 'df_web_rum_sdk'
  const r = await rum.resolver.resolve({
    stack,
    appId: q.get('app_id') ?? '',
    env: q.get('env') ?? '',
    version: q.get('version') ?? '',
    sdkName,
  })
  if (r.refused) rum.events.zipRefused(r.refused)
  const ok = r.reason === '' && r.mapped !== null
  const reason = ok ? '' : r.reason || 'fetch original source information failed'
  // On failure both stacks are the submitted one (spec 4.7).
  const content = { error_stack: ok ? r.mapped : stack, original_error_stack: stack }
  const body = { content, errorMsg: reason, success: ok }
  return new Response(JSON.stringify(body), { status: 200, headers: JSON_TYPE })
}

export function sourcemapRoutes(app: Hono<HttpEnv>, deps: HttpDeps): void {
  const rum = deps.rum
  if (!rum) return
  const guarded =
    (run: (q: URLSearchParams) => Promise<Response>) => async (c: Context<HttpEnv>) => {
      try {
        return await run(new URL(c.req.url).searchParams)
      } catch (e) {
        if (e instanceof FerryError) return envelope(null, e.message)
        throw e
      }
    }
  app.put('/v1/sourcemap', (c) => guarded((q) => upload(c, deps, rum, target(deps, rum, q)))(c))
  app.delete(
    '/v1/sourcemap',
    guarded((q) => remove(rum, target(deps, rum, q))),
  )
  app.get(
    '/v1/sourcemap/check',
    guarded((q) => check(rum, q)),
  )
}
