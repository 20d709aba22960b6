/** The shipped deployment files name only configuration Ferry knows, and the image starts. */
import assert from 'node:assert/strict'
import fs from 'node:fs'
import { test } from 'node:test'
import { SCHEMA } from '../../../src/config/schema.js'
import { containers, MANIFEST_FILES, readManifest } from '../../helpers/manifests.js'

const KNOWN = new Set<string>(['FERRY_CONTAINER', 'FERRY_COMMIT', 'FERRY_CONFIG', 'NODE_ENV'])
for (const keys of Object.values(SCHEMA))
  for (const spec of Object.values(keys)) if ('env' in spec) KNOWN.add(spec.env)

const docker = fs.readFileSync(new URL('../../../Dockerfile', import.meta.url), 'utf8')
const stages = docker.split(/^FROM /m).slice(1)
const stage = (name: string) => stages.find((s) => s.split('\n')[0].endsWith(` AS ${name}`)) ?? ''

test('every FERRY_/ENV_ variable in the Dockerfile and the Kubernetes manifests exists', () => {
  const names = [...docker.matchAll(/\b((?:ENV|FERRY)_[A-Z_]+)=/g)].map((m) => m[1])
  for (const file of MANIFEST_FILES) {
    const m = readManifest(file)
    for (const c of containers(m)) for (const e of c.env ?? []) names.push(e.name)
    // Names in comments and examples count too: they are what an operator copies.
    names.push(...[...m.text.matchAll(/\b((?:ENV|FERRY)_[A-Z_]+)\b/g)].map((x) => x[1]))
  }
  assert.ok(names.length >= 8, names.join(','))
  assert.deepEqual(
    names.filter((n) => /^(ENV|FERRY)_/.test(n) && !KNOWN.has(n)),
    [],
  )
  const manifest = readManifest('ferry-sidecar.yaml').text
  assert.match(manifest, /prometheus\.io\/scrape: 'true'/)
})

test('Dockerfile: numeric user, health that follows the config, data volume', () => {
  assert.match(docker, /groupadd --gid 10001 /)
  assert.match(docker, /useradd --uid 10001 --gid 10001 /)
  assert.match(docker, /chown 10001:10001 \/var\/lib\/ferry/)
  assert.match(docker, /^USER 10001:10001$/m)
  assert.match(docker, /^VOLUME \["\/var\/lib\/ferry"\]$/m)
  const health = /^HEALTHCHECK (?:[^\n]*\\\n)*[^\n]*/m.exec(docker)?.[0] ?? ''
  assert.match(health, /CMD \["node", "dist\/src\/main\.js", "health"\]/)
  assert.doesNotMatch(health, /9529|127\.0\.0\.1/, 'the address comes from ENV_HTTP_LISTEN')
})

test('Dockerfile: the default image has no DuckDB; the workspace target has it', () => {
  assert.match(stages.at(-1)!, /^\S+ AS agent\n/, 'the agent is the default (last) target')
  assert.match(stage('agent'), /--from=agent-modules \/app\/node_modules/)
  assert.match(stage('agent-modules'), /^RUN rm -rf node_modules\/@duckdb$/m)
  assert.match(stage('workspace'), /--from=build \/app\/node_modules/)
  assert.match(stage('workspace'), /ENV_WORKSPACE_LISTEN=0\.0\.0\.0:9528/)
})
