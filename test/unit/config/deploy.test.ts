/** The shipped deployment files name only configuration Ferry knows. */
import assert from 'node:assert/strict'
import fs from 'node:fs'
import { test } from 'node:test'
import { SCHEMA } from '../../../src/config/schema.js'

const KNOWN = new Set<string>(['FERRY_CONTAINER', 'FERRY_COMMIT', 'FERRY_CONFIG', 'NODE_ENV'])
for (const keys of Object.values(SCHEMA))
  for (const spec of Object.values(keys)) if ('env' in spec) KNOWN.add(spec.env)

test('every FERRY_/ENV_ variable in the Dockerfile and the Kubernetes manifest exists', () => {
  const manifest = fs.readFileSync(
    new URL('../../../deploy/kubernetes/ferry-sidecar.yaml', import.meta.url),
    'utf8',
  )
  const docker = fs.readFileSync(new URL('../../../Dockerfile', import.meta.url), 'utf8')
  const names = [
    ...[...manifest.matchAll(/- name: ((?:ENV|FERRY)_[A-Z_]+)/g)].map((m) => m[1]),
    ...[...docker.matchAll(/\b((?:ENV|FERRY)_[A-Z_]+)=/g)].map((m) => m[1]),
  ]
  assert.ok(names.length >= 8, names.join(','))
  assert.deepEqual(
    names.filter((n) => !KNOWN.has(n)),
    [],
  )
  assert.match(docker, /^HEALTHCHECK .*\/v1\/ping/m)
  assert.match(docker, /^USER ferry$/m)
  assert.match(docker, /^VOLUME \["\/var\/lib\/ferry"\]$/m)
  assert.match(manifest, /prometheus\.io\/scrape: 'true'/)
})
