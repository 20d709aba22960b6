/**
 * The buffer contract on each implementation: the durable disk buffer (reading windows into
 * fresh memory, and into a buffer pool's) and the memory one.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { DiskBuffer } from '../../../src/buffer/disk/disk-buffer.js'
import { BufferPool } from '../../../src/shared/buffer-pool.js'
import { MemoryBuffer } from '../../helpers/memory-buffer.js'
import { bufferContract } from './contract.js'

const quiet = {
  committed() {},
  pointsDropped() {},
  recordDamaged() {},
  storageFailed() {},
  recordsLost() {},
}

bufferContract('DiskBuffer', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-contract-'))
  const o = { durability: 'sync' as const, maxBytesPerCategory: 1 << 30, minFreeDisk: 0 }
  return new DiskBuffer({ path: dir, whenFull: 'reject', ...o }, quiet)
})

bufferContract('DiskBuffer with a buffer pool', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-contract-'))
  const o = { durability: 'sync' as const, maxBytesPerCategory: 1 << 30, minFreeDisk: 0 }
  const buffers = new BufferPool(1 << 20)
  return new DiskBuffer({ path: dir, whenFull: 'reject', buffers, ...o }, quiet)
})

// Reopened (remap.ts) after every read: the contract holds across reopens, in both durabilities.
for (const durability of ['sync', 'async'] as const) {
  bufferContract(`DiskBuffer (${durability}) reopened after every read`, async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-contract-'))
    const o = { durability, maxBytesPerCategory: 1 << 30, minFreeDisk: 0 }
    return new DiskBuffer({ path: dir, whenFull: 'reject', maxResident: 1, ...o }, quiet)
  })
}

bufferContract('MemoryBuffer', async () => new MemoryBuffer(1 << 30))
