/**
 * Streams a multipart body through busboy: form values are collected, the file part goes to
 * `onFile`; more than `limit` bytes in all fails with the Go text the reference answers.
 */
import { Readable } from 'node:stream'
import { Busboy, type BusboyInstance } from '@fastify/busboy'

export const TOO_LARGE = 'http: request body too large'

export interface Parts {
  values: Map<string, string>
  file: boolean
}

export function parseMultipart(
  req: Request,
  limit: number,
  onFile: (name: string, stream: Readable) => Promise<void>,
): Promise<Parts> {
  return new Promise((resolve, reject) => {
    const values = new Map<string, string>()
    let file = false
    let pending: Promise<void> = Promise.resolve()
    let bb: BusboyInstance
    try {
      bb = new Busboy({ headers: { 'content-type': req.headers.get('content-type') ?? '' } })
    } catch (e) {
      return reject(e as Error)
    }
    bb.on('field', (k: string, v: string) => values.set(k, v))
    bb.on('file', (name: string, stream: Readable) => {
      if (file) return stream.resume()
      file = true
      pending = onFile(name, stream)
    })
    bb.on('error', reject)
    bb.on('finish', () => pending.then(() => resolve({ values, file }), reject))
    if (!req.body) return reject(new Error("request Content-Type isn't multipart/form-data"))
    let seen = 0
    const body = Readable.fromWeb(req.body as never)
    body.on('data', (chunk: Buffer) => {
      seen += chunk.length
      if (seen > limit) {
        body.destroy()
        reject(new Error(TOO_LARGE))
      }
    })
    body.on('error', reject)
    body.pipe(bb)
  })
}
