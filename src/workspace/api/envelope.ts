/**
 * The response envelope of the Open API (spec 000, 2.1), used for every answer of the
 * workspace service, errors included: `code` is the HTTP status, `errorCode` the error's code
 * from the one error table in PascalCase (`InvalidApiKey`), `success` false on errors.
 */
import crypto from 'node:crypto'
import type { Context } from 'hono'
import { FerryError } from '../../errors.js'
import { readBody } from '../../http/body.js'

export interface PageInfo {
  count: number
  pageIndex: number
  pageSize: number
  totalCount: number
}

export interface Envelope {
  code: number
  content: unknown
  pageInfo?: PageInfo
  errorCode: string
  message: string
  success: boolean
  traceId: string
}

export function newTraceId(): string {
  return crypto.randomBytes(16).toString('hex')
}

/**
 * Codes shown under another code's name: the two sides answer unknown routes differently, and
 * the workspace's unknown errors are 503 where the agent's are 500.
 */
const SHOWN_AS: Record<string, string> = {
  datawayRouteNotFound: 'RouterNotFound',
  workspaceInternalError: 'InternalError',
}

export function errorCodeName(code: string): string {
  return SHOWN_AS[code] ?? code[0].toUpperCase() + code.slice(1)
}

export function ok(c: Context, content: unknown, pageInfo?: PageInfo): Response {
  const body: Envelope = {
    code: 200,
    content,
    errorCode: '',
    message: '',
    success: true,
    traceId: c.get('traceId') as string,
  }
  if (pageInfo) body.pageInfo = pageInfo
  return c.json(body)
}

export function errorResponse(
  err: FerryError,
  traceId: string,
  extraHeaders: Record<string, string> = {},
  content: unknown = null,
): Response {
  const body: Envelope = {
    code: err.status,
    content,
    errorCode: errorCodeName(err.code),
    message: err.message,
    success: false,
    traceId,
  }
  const headers: Record<string, string> = {
    'Content-Type': 'application/json',
    'X-Trace-Id': traceId,
    ...extraHeaders,
  }
  if (err.retryAfter !== undefined) headers['Retry-After'] = String(err.retryAfter)
  return new Response(JSON.stringify(body), { status: err.status, headers })
}

/**
 * The JSON body of a POST; a missing body is `{}`, a broken one a 400. Read with the limit
 * applied while the bytes arrive (413 as soon as it is passed), never after.
 */
export async function jsonBody(c: Context, limit: number): Promise<unknown> {
  const bytes = await readBody(c.env?.incoming, c.req.raw, limit)
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('utf8')
  if (!text.trim()) return {}
  try {
    return JSON.parse(text) as unknown
  } catch (e) {
    throw new FerryError('invalidParameter', `the body is not valid JSON: ${(e as Error).message}`)
  }
}
