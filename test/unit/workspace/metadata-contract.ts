/**
 * The MetadataStore contract (src/workspace/store/metadata.ts), written once: every
 * implementation runs it through `metadataContract` with a function opening a fresh, empty
 * store whose replays are bounded to `REPLAY_BOUND` bytes per workspace.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { FerryError } from '../../../src/errors.js'
import type { MetadataStore } from '../../../src/workspace/store/metadata.js'

export const REPLAY_BOUND = 1000

export interface OpenedMetadata {
  meta: MetadataStore
  close(): Promise<void>
}

const notFound = (e: unknown) => e instanceof FerryError && e.code === 'objectNotFound'

export function metadataContract(name: string, open: () => Promise<OpenedMetadata>): void {
  const withStore = (fn: (m: MetadataStore) => Promise<void>) => async () => {
    const s = await open()
    try {
      await fn(s.meta)
    } finally {
      await s.close()
    }
  }

  test(
    `${name}: workspaces are unique by name, found by token, listed oldest first`,
    withStore(async ({ accounts: a }) => {
      assert.deepEqual(await a.list(), [])
      const one = await a.create('one')
      assert.match(one.id, /^wksp_[0-9a-f]{32}$/)
      assert.match(one.token, /^tkn_[0-9a-f]{32}$/)
      const two = await a.ensure('two')
      assert.deepEqual(await a.ensure('two'), two)
      await assert.rejects(a.create('one'), /already exists/)
      await assert.rejects(a.create('no spaces'), /a workspace name/)
      await assert.rejects(a.byName('three'), notFound)
      assert.deepEqual(await a.byName('one'), one)
      assert.deepEqual(
        (await a.list()).map((w) => w.name),
        ['one', 'two'],
      )
      assert.deepEqual(await a.byToken(two.token), two)
      assert.equal(await a.byToken(two.token.slice(0, -1)), undefined)
    }),
  )

  test(
    `${name}: an API key finds its workspace until revoked; a revoked key stays listed`,
    withStore(async ({ accounts: a }) => {
      const ws = await a.create('keys')
      await assert.rejects(a.createKey('missing', 'k'), notFound)
      const { info, key } = await a.createKey('keys', 'first')
      assert.match(key, /^[0-9a-f]{40}$/)
      assert.equal(info.prefix, key.slice(0, 6))
      assert.deepEqual(await a.byApiKey(key), ws)
      assert.equal(await a.byApiKey(key.replace(/.$/, (c) => (c === '0' ? '1' : '0'))), undefined)
      await a.revokeKey(info.id)
      assert.equal(await a.byApiKey(key), undefined)
      const [listed] = await a.listKeys('keys')
      assert.equal(listed.id, info.id)
      assert.equal(listed.name, 'first')
      assert.ok(listed.revokedAt !== null && listed.revokedAt >= info.createdAt)
      await assert.rejects(a.revokeKey('ak_missing'), notFound)
    }),
  )

  test(
    `${name}: dashboards: newest change first, searched, tag-filtered, names unique`,
    withStore(async ({ dashboards: d }) => {
      const all = { search: '', tagNames: [] as string[] }
      const first = await d.create('wksp_a', { name: 'Hosts', tagNames: ['x'] }, 'ak_1')
      await new Promise((r) => setTimeout(r, 5))
      const second = await d.create('wksp_a', { name: 'Disks', extend: { a: 1 } }, 'ak_1')
      await d.create('wksp_b', { name: 'Other' }, 'ak_2')
      assert.deepEqual([first.tagNames, second.extend, first.creator], [['x'], { a: 1 }, 'ak_1'])
      assert.equal(typeof first.num, 'number')
      await assert.rejects(d.create('wksp_a', { name: 'Hosts' }, 'ak_1'), /exists/)
      const listed = await d.list('wksp_a', all, 0, 10)
      assert.equal(listed.total, 2)
      assert.deepEqual(
        listed.items.map((x) => x.name),
        ['Disks', 'Hosts'],
      )
      const found = await d.list('wksp_a', { ...all, search: 'HOST' }, 0, 10)
      assert.deepEqual(
        found.items.map((x) => x.uuid),
        [first.uuid],
      )
      const tagged = await d.list('wksp_a', { ...all, tagNames: ['x', 'y'] }, 0, 10)
      assert.deepEqual(
        tagged.items.map((x) => x.uuid),
        [first.uuid],
      )
      const page = await d.list('wksp_a', all, 1, 1)
      assert.deepEqual([page.total, page.items[0].uuid], [2, first.uuid])
      await new Promise((r) => setTimeout(r, 5))
      const changed = await d.modify('wksp_a', first.uuid, { desc: 'all hosts' }, 'ak_9')
      assert.deepEqual(
        [changed.name, changed.desc, changed.updator],
        ['Hosts', 'all hosts', 'ak_9'],
      )
      assert.deepEqual(await d.get('wksp_a', first.uuid), changed)
      assert.equal((await d.list('wksp_a', all, 0, 1)).items[0].uuid, first.uuid)
      await assert.rejects(d.get('wksp_b', first.uuid), notFound)
      assert.equal((await d.delete('wksp_a', first.uuid)).uuid, first.uuid)
      await assert.rejects(d.get('wksp_a', first.uuid), notFound)
      await assert.rejects(d.delete('wksp_a', first.uuid), notFound)
    }),
  )

  test(
    `${name}: notes: newest change first, searched, changed and deleted`,
    withStore(async ({ notes: n }) => {
      const one = await n.create('wksp_a', { name: 'Deploys', chartUUIDs: ['c1', 'c2'] }, 'ak_1')
      await new Promise((r) => setTimeout(r, 5))
      const two = await n.create('wksp_a', { name: 'Incidents' }, 'ak_1')
      assert.deepEqual([one.chartUUIDs, two.chartUUIDs, two.extend], [['c1', 'c2'], [], {}])
      assert.deepEqual(
        (await n.list('wksp_a', '')).map((x) => x.uuid),
        [two.uuid, one.uuid],
      )
      assert.deepEqual(
        (await n.list('wksp_a', 'deploy')).map((x) => x.uuid),
        [one.uuid],
      )
      const changed = await n.modify('wksp_a', one.uuid, { name: 'Releases' }, 'ak_2')
      assert.deepEqual(
        [changed.name, changed.chartUUIDs, changed.updator],
        ['Releases', ['c1', 'c2'], 'ak_2'],
      )
      assert.equal((await n.delete('wksp_a', two.uuid)).name, 'Incidents')
      await assert.rejects(n.get('wksp_a', two.uuid), notFound)
      assert.deepEqual((await n.list('wksp_b', '')).length, 0)
    }),
  )

  test(
    `${name}: labels are replaced per object record, merged per object name, deleted`,
    withStore(async ({ labels: l }) => {
      const obj = { object_class: 'HOST', object_name: 'h1', key: 'k', value: 'v' }
      const id = await l.set('wksp_a', { ...obj, labels: ['a'] })
      assert.equal(await l.set('wksp_a', { ...obj, labels: ['b', 'c'] }), id)
      await l.set('wksp_a', { ...obj, key: 'other', labels: ['c', 'd'] })
      await l.set('wksp_b', { ...obj, labels: ['z'] })
      const got = await l.forClass('wksp_a', 'HOST')
      assert.deepEqual(
        [...got.entries()].map(([k, v]) => [k, [...v].sort()]),
        [['h1', ['b', 'c', 'd']]],
      )
      await l.delete('wksp_a', obj)
      assert.deepEqual([...(await l.forClass('wksp_a', 'HOST')).get('h1')!].sort(), ['c', 'd'])
      await assert.rejects(l.delete('wksp_a', obj), notFound)
    }),
  )

  test(
    `${name}: env variables: the application's own value wins; null removes`,
    withStore(async ({ envVariables: v }) => {
      await v.set('wksp_a', '', 'level', 'info')
      await v.set('wksp_a', '', 'site', 'all')
      await v.set('wksp_a', 'app1', 'level', 'debug')
      await v.set('wksp_b', '', 'level', 'warn')
      assert.deepEqual(await v.forApp('wksp_a', 'app1'), { level: 'debug', site: 'all' })
      assert.deepEqual(await v.forApp('wksp_a', 'app2'), { level: 'info', site: 'all' })
      await v.set('wksp_a', 'app1', 'level', 'trace')
      assert.deepEqual(await v.forApp('wksp_a', 'app1'), { level: 'trace', site: 'all' })
      await v.set('wksp_a', 'app1', 'level', null)
      assert.deepEqual(await v.forApp('wksp_a', 'app1'), { level: 'info', site: 'all' })
    }),
  )

  test(
    `${name}: replays are listed newest first; the oldest go past the byte bound`,
    withStore(async ({ replays: r }) => {
      const ids: string[] = []
      for (let i = 0; i < 4; i++) {
        const fields = { app_id: 'app', session_id: `s${i}`, view_id: 'v', start: '10', end: 'x' }
        ids.push(await r.store('wksp_a', { fields, segment: new Uint8Array(400) }))
        await new Promise((res) => setTimeout(res, 5))
      }
      await r.store('wksp_b', { fields: {}, segment: new Uint8Array(10) })
      const listed = await r.list('wksp_a', 0, 10)
      // 1000 bytes hold two segments of 400: the two newest.
      assert.deepEqual(
        listed.map((x) => x.id),
        [ids[3], ids[2]],
      )
      assert.deepEqual(
        [listed[0].session_id, listed[0].start, listed[0].end, listed[0].size],
        ['s3', 10, 0, 400],
      )
      assert.equal(listed[0].fields.end, 'x')
      assert.deepEqual(
        (await r.list('wksp_a', 1, 10)).map((x) => x.id),
        [ids[2]],
      )
      assert.equal((await r.list('wksp_b', 0, 10)).length, 1)
    }),
  )

  test(
    `${name}: retention overrides: one per workspace and category, listed in order, cleared`,
    withStore(async ({ retentionOverrides: o }) => {
      await o.set('wksp_b', 'metric', 1000)
      await o.set('wksp_a', 'logging', 0)
      await o.set('wksp_a', 'metric', 5)
      await o.set('wksp_a', 'metric', 7)
      assert.deepEqual(await o.list(), [
        { workspaceId: 'wksp_a', category: 'logging', keepMs: 0 },
        { workspaceId: 'wksp_a', category: 'metric', keepMs: 7 },
        { workspaceId: 'wksp_b', category: 'metric', keepMs: 1000 },
      ])
      assert.deepEqual(await o.list('wksp_b'), [
        { workspaceId: 'wksp_b', category: 'metric', keepMs: 1000 },
      ])
      assert.equal((await o.map()).get('wksp_a')?.get('metric'), 7)
      assert.equal(await o.clear('wksp_a', 'metric'), true)
      assert.equal(await o.clear('wksp_a', 'metric'), false)
      assert.deepEqual((await o.list('wksp_a')).length, 1)
    }),
  )
}
