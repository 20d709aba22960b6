/**
 * Every zip the agent reads (source maps, Android and iOS symbol zips) is read here, within a
 * budget: the entries and the inflated bytes of the whole zip are counted while streaming,
 * and the read stops with `ZipRefused` the moment either passes its bound. Declared sizes are
 * never trusted: yauzl checks them against the stream, and the count here stops at the budget
 * whatever they say, so at most `maxBytes` (plus one inflate chunk) ever exist at once. The
 * zip is read from its file in pieces, never held whole. yauzl loads with the first zip read.
 */
import type { Readable } from 'node:stream'
import type yauzl from 'yauzl'

export interface ZipBudget {
  /** Inflated bytes over all the entries read. */
  maxBytes: number
  /** Entries in the zip, read or skipped. */
  maxEntries: number
}

/** A zip over its budget: the reason names the bound, never the server's paths. */
export class ZipRefused extends Error {}

/** Consumes one entry's bytes; the iterable throws `ZipRefused` when the budget is passed. */
export type EntrySink = (name: string, data: AsyncIterable<Buffer>) => Promise<void>

async function open(file: string): Promise<yauzl.ZipFile> {
  const { default: yauzl } = await import('yauzl')
  return new Promise((resolve, reject) =>
    // Names are decoded here, not by yauzl: it fails a whole zip on one `../` entry, where
    // the reference skips that entry and reads the rest.
    yauzl.open(file, { lazyEntries: true, autoClose: false, decodeStrings: false }, (e, z) =>
      e ? reject(e) : resolve(z),
    ),
  )
}

function next(z: yauzl.ZipFile): Promise<yauzl.Entry | null> {
  return new Promise((resolve, reject) => {
    const settle = (e: Error | null, entry: yauzl.Entry | null): void => {
      z.off('entry', onEntry).off('end', onEnd).off('error', settle)
      if (e) reject(e)
      else resolve(entry)
    }
    const onEntry = (entry: yauzl.Entry): void => settle(null, entry)
    const onEnd = (): void => settle(null, null)
    z.on('entry', onEntry).on('end', onEnd).on('error', settle)
    z.readEntry()
  })
}

function openStream(z: yauzl.ZipFile, entry: yauzl.Entry): Promise<Readable> {
  return new Promise((resolve, reject) =>
    z.openReadStream(entry, (e, s) => (e ? reject(e) : resolve(s))),
  )
}

/** An entry's name as the zip wrote it: UTF-8 when flagged, else one byte per character. */
function entryName(entry: yauzl.Entry): string {
  return entry.fileNameRaw.toString(entry.generalPurposeBitFlag & 0x800 ? 'utf8' : 'latin1')
}

/**
 * Hands every entry `want` accepts to `sink`, in zip order. Throws `ZipRefused` over budget,
 * and yauzl's error for a zip that cannot be read; the file is closed either way.
 */
export async function readZip(
  file: string,
  budget: ZipBudget,
  want: (name: string) => boolean,
  sink: EntrySink,
): Promise<void> {
  const z = await open(file)
  const tooMany = (): ZipRefused => new ZipRefused(`more than ${budget.maxEntries} entries`)
  try {
    if (z.entryCount > budget.maxEntries) throw tooMany()
    let entries = 0
    let bytes = 0
    const counted = async function* (s: Readable): AsyncGenerator<Buffer> {
      for await (const chunk of s as AsyncIterable<Buffer>) {
        bytes += chunk.length
        if (bytes > budget.maxBytes)
          throw new ZipRefused(`inflates to more than ${budget.maxBytes} bytes`)
        yield chunk
      }
    }
    for (let e = await next(z); e; e = await next(z)) {
      if (++entries > budget.maxEntries) throw tooMany()
      const name = entryName(e)
      if (name.endsWith('/') || !want(name)) continue
      await sink(name, counted(await openStream(z, e)))
    }
  } finally {
    z.close()
  }
}

/** One entry's bytes, in memory (bounded by the budget the iterable counts against). */
export async function collect(data: AsyncIterable<Buffer>): Promise<Buffer> {
  const parts: Buffer[] = []
  for await (const chunk of data) parts.push(chunk)
  return Buffer.concat(parts)
}
