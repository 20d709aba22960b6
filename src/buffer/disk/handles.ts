/**
 * The buffer's LMDB environment and every handle opened on it, opened (and reopened, remap.ts)
 * as one, so no handle of a closed environment is ever left in use.
 */
import type { Database, RootDatabase } from 'lmdb'
import type { Category } from '../../shared/category.js'
import type { DeadLetter } from '../buffer.js'
import { DeadLetters } from './dead-letters.js'
import type { Key } from './keys.js'
import { openCategories, openEnv } from './open-env.js'
import { Positions } from './positions.js'
import type { Reopen } from './remap.js'
import type { DiskBufferOptions } from './types.js'

export class EnvHandles implements Reopen {
  env: RootDatabase | null = null
  positions: Positions | null = null
  dead: DeadLetters | null = null
  readonly dbs = new Map<Category, Database<Buffer, Key>>()

  constructor(private readonly opts: DiskBufferOptions) {}

  open(): void {
    const env = openEnv(this.opts)
    this.env = env
    this.positions = new Positions(env.openDB({ name: 'meta' }))
    this.dead = new DeadLetters(env.openDB<DeadLetter, number>({ name: 'dead' }))
    openCategories(env, this.dbs)
  }

  async settle(): Promise<void> {
    await this.env?.committed
    await this.env?.flushed
  }

  async reopen(): Promise<void> {
    if (!this.env) return
    await this.env.close()
    this.open()
  }

  async close(): Promise<void> {
    const env = this.env
    this.env = null
    if (env) await env.close()
  }
}
