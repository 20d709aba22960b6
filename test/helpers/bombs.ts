/** Hostile compressed bodies: zstd frames declaring huge windows, and a gzip point bomb. */
import zlib from 'node:zlib'

const ZSTD_MAGIC = [0x28, 0xb5, 0x2f, 0xfd]

/** An RLE block regenerating `size` copies of one byte: 4 bytes on the wire. */
function rleBlock(size: number, last: boolean): number[] {
  const h = (size << 3) | (1 << 1) | (last ? 1 : 0)
  return [h & 255, (h >> 8) & 255, (h >> 16) & 255, 0x61]
}

/**
 * One frame with window descriptor `wd` (0xa7: 1 GiB + 7/8 GiB) and `blocks` RLE blocks of
 * 128 KiB: 6 + 4 * blocks bytes. 4 blocks make the 22-byte bomb, 40 the 166-byte one.
 */
export function zstdWindowBomb(blocks: number, wd = 0xa7): Uint8Array {
  const out = [...ZSTD_MAGIC, 0x00, wd]
  for (let i = 0; i < blocks; i++) out.push(...rleBlock(128 * 1024, i === blocks - 1))
  return Uint8Array.from(out)
}

/** A single-segment frame declaring a content size (8-byte field) of `size` bytes. */
export function zstdContentBomb(size: number): Uint8Array {
  const fcs = Buffer.alloc(8)
  fcs.writeBigUInt64LE(BigInt(size))
  return Uint8Array.from([...ZSTD_MAGIC, 0xe0, ...fcs, ...rleBlock(128 * 1024, true)])
}

/**
 * `points` (a multiple of 100,000) copies of the 6-byte line `a x=1\n`, gzip'd as concatenated
 * members of 100,000 lines each (gzip readers join members): 9 million is about 60 KB.
 */
export function gzipPointBomb(points: number): Buffer {
  const member = zlib.gzipSync(Buffer.alloc(600_000, 'a x=1\n'), { level: 9 })
  return Buffer.concat(Array.from({ length: points / 100_000 }, () => member))
}

/** A zip entry header's fixed fields, little-endian, as `[bytes, value]` pairs. */
function fields(parts: [number, number][]): Buffer {
  const b = Buffer.alloc(parts.reduce((n, [w]) => n + w, 0))
  let at = 0
  for (const [w, v] of parts) {
    if (w === 2) b.writeUInt16LE(v, at)
    else b.writeUInt32LE(v, at)
    at += w
  }
  return b
}

/**
 * A zip of `names.length` entries, each `entrySize` zeros deflated (sizes declared honestly):
 * the compressed stream is made once and repeated, so 24 entries of 120 MiB are about 3 MB
 * and take a quarter of a second to build.
 */
export function zipBomb(names: string[], entrySize: number): Buffer {
  const data = zlib.deflateRawSync(Buffer.alloc(entrySize), { level: 9 })
  const crc = zlib.crc32(Buffer.alloc(entrySize))
  const locals: Buffer[] = []
  const central: Buffer[] = []
  let offset = 0
  for (const n of names) {
    const name = Buffer.from(n)
    const common: [number, number][] = [
      [2, 20],
      [2, 0],
      [2, 8],
      [2, 0],
      [2, 0x21],
      [4, crc],
    ]
    const sizes: [number, number][] = [
      [4, data.length],
      [4, entrySize],
      [2, name.length],
      [2, 0],
    ]
    const local = Buffer.concat([fields([[4, 0x04034b50], ...common, ...sizes]), name, data])
    const tail: [number, number][] = [
      [2, 0],
      [2, 0],
      [2, 0],
      [4, 0],
      [4, offset],
    ]
    const head = fields([[4, 0x02014b50], [2, 20], ...common, ...sizes, ...tail])
    central.push(Buffer.concat([head, name]))
    locals.push(local)
    offset += local.length
  }
  const dir = Buffer.concat(central)
  const n = names.length
  const end = fields([
    [4, 0x06054b50],
    [2, 0],
    [2, 0],
    [2, n],
    [2, n],
    [4, dir.length],
    [4, offset],
    [2, 0],
  ])
  return Buffer.concat([...locals, dir, end])
}
