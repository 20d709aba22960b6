/**
 * The Kubernetes manifests start as written: Ferry's container runs as the image's numeric
 * user, is probed with `ferry health`, listens where its ports and annotations say, takes a
 * config Ferry accepts, and buffers no more than its volume holds.
 */
import assert from 'node:assert/strict'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { test } from 'node:test'
import { loadConfig } from '../../../src/config/load.js'
import { INPUT_KINDS } from '../../../src/inputs/kinds.js'
import { planInputs } from '../../../src/inputs/plan.js'
import {
  containers,
  ferryEnv,
  imageEnv,
  MANIFEST_FILES,
  quantityBytes,
  readManifest,
  type Container,
  type Manifest,
  type Probe,
} from '../../helpers/manifests.js'

const UID = 10001
// LMDB needs room beyond the records it holds (pages, free lists): see conf.d/ferry.conf.
const VOLUME_SHARE = 0.75

function configOf(m: Manifest, configPath = '/nonexistent/ferry.conf') {
  const env = { FERRY_CONTAINER: '1', ...imageEnv(), ...ferryEnv(m) }
  return loadConfig(configPath, env)
}

function effective(m: Manifest, c: Container) {
  return { ...m.pod.securityContext, ...c.securityContext }
}

function probesHealth(p: Probe | undefined, port: number, m: Manifest): boolean {
  if (p?.exec) return p.exec.command.join(' ') === 'node dist/src/main.js health'
  const named = m.ferry.ports?.find((x) => x.name === p?.httpGet?.port)?.containerPort
  return p?.httpGet?.path === '/v1/ping' && (p.httpGet.port === port || named === port)
}

test('there are a sidecar and a DaemonSet manifest', () => {
  assert.deepEqual(MANIFEST_FILES.sort(), ['ferry-daemonset.yaml', 'ferry-sidecar.yaml'])
})

for (const file of MANIFEST_FILES) {
  const m = readManifest(file)

  test(`${file}: every container of Ferry's runs as uid ${UID}, non-root, data group ${UID}`, () => {
    assert.equal(m.pod.securityContext?.fsGroup, UID)
    const sc = effective(m, m.ferry)
    assert.equal(sc.runAsNonRoot, true)
    assert.equal(sc.runAsUser, UID)
    assert.equal(sc.runAsGroup, UID)
  })

  test(`${file}: the config loads, and port, annotation and probes agree with it`, () => {
    const cfg = configOf(m).config
    const port = Number(cfg.http_api.listen.split(':').pop())
    assert.match(cfg.http_api.listen, /^0\.0\.0\.0:/, 'other pods and the kubelet must reach it')
    assert.deepEqual(
      m.ferry.ports?.map((p) => p.containerPort),
      [port],
    )
    assert.equal(m.annotations['prometheus.io/port'], String(port))
    assert.ok(cfg.http_api.public_apis.includes('/metrics'))
    assert.ok(cfg.dataway.urls.length > 0, 'an upstream: the agent image has no workspace')
    for (const probe of ['startupProbe', 'readinessProbe', 'livenessProbe'] as const)
      assert.ok(probesHealth(m.ferry[probe], port, m), `${probe} runs ferry health`)
  })

  test(`${file}: the buffer volume is mounted at the data directory`, () => {
    const cfg = configOf(m).config
    const mount = m.ferry.volumeMounts?.find((v) => v.mountPath === '/var/lib/ferry')
    assert.ok(mount, 'mounted where the image keeps its data (ENV_DATA_DIR)')
    assert.equal(cfg.agent.data_dir, '/var/lib/ferry')
    assert.ok(m.pod.volumes?.some((v) => v.name === mount.name))
  })
}

test('sidecar: a native sidecar, with a buffer budget that fits its emptyDir', () => {
  const m = readManifest('ferry-sidecar.yaml')
  assert.equal(m.ferryIsInit, true, 'in initContainers')
  assert.equal(m.ferry.restartPolicy, 'Always')
  assert.ok(m.ferry.startupProbe, 'the application starts once Ferry answers')
  const volume = m.pod.volumes?.find((v) => v.emptyDir)
  assert.ok(volume?.emptyDir?.sizeLimit, 'the emptyDir has a sizeLimit')
  const size = quantityBytes(volume.emptyDir.sizeLimit)
  const budget = configOf(m).config['dataway.wal'].max_total_capacity_gb * 2 ** 30
  assert.ok(budget <= size * VOLUME_SHARE, `buffer ${budget} bytes, emptyDir ${size}`)
  // The application keeps its own image's user: only Ferry's container is pinned.
  const app = m.pod.containers.find((c) => c.name === 'app')
  assert.equal(app?.securityContext, undefined)
})

/**
 * Lays a ConfigMap's files out as the kubelet does: the data in a timestamped folder, `..data`
 * linking to it, and one link per file, so the test reads what the agent would read.
 */
function configMapVolume(dir: string, files: Record<string, string>): void {
  fs.mkdirSync(path.join(dir, '..2026_01_01_00_00_00.1'), { recursive: true })
  fs.symlinkSync('..2026_01_01_00_00_00.1', path.join(dir, '..data'))
  for (const [name, text] of Object.entries(files)) {
    fs.writeFileSync(path.join(dir, '..2026_01_01_00_00_00.1', name), text)
    fs.symlinkSync(path.join('..data', name), path.join(dir, name))
  }
}

test('sidecar: the ConfigMap mounted under conf.d gives prom on the app and logging', () => {
  const m = readManifest('ferry-sidecar.yaml')
  const mountOf = (c: Container | undefined, volume: string) =>
    c?.volumeMounts?.find((v) => v.name === volume)?.mountPath
  const inputs = m.pod.volumes?.find((v) => v.configMap)
  const files = m.configMaps[inputs!.configMap!.name]!
  assert.deepEqual(Object.keys(files).sort(), ['logging.conf', 'prom.conf'])
  // In container mode the config path is the image's /app/conf.d/ferry.conf (WORKDIR /app).
  assert.equal(mountOf(m.ferry, inputs!.name), '/app/conf.d/inputs')
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-k8s-'))
  configMapVolume(path.join(root, 'app/conf.d/inputs'), files)
  const plan = planInputs(configOf(m, path.join(root, 'app/conf.d/ferry.conf')), INPUT_KINDS)
  assert.deepEqual(
    plan.map((c) => [c.kind.name, path.relative(root, c.file)]),
    [
      ['logging', 'app/conf.d/inputs/logging.conf'],
      ['prom', 'app/conf.d/inputs/prom.conf'],
    ],
  )
  const [logging, prom] = plan.map((c) => c.conf)
  const app = m.pod.containers.find((c) => c.name === 'app')
  const appPort = app?.ports?.find((p) => p.name === 'metrics')?.containerPort
  assert.deepEqual(prom!.urls, [`http://127.0.0.1:${appPort}/metrics`])
  assert.equal(prom!.interval, 15_000)
  // Both containers mount the log volume at the same path, the one the glob names.
  const logs = m.pod.volumes?.find((v) => v.name === 'app-logs')
  assert.ok(logs?.emptyDir, 'a shared emptyDir')
  assert.equal(mountOf(app, 'app-logs'), '/var/log/shop')
  assert.equal(mountOf(m.ferry, 'app-logs'), '/var/log/shop')
  assert.deepEqual(
    [logging!.logfiles, logging!.source, logging!.from_beginning],
    [['/var/log/shop/*.log'], 'shop', true],
  )
})

test('DaemonSet: one agent per node, data on the node, node name as host, every node', () => {
  const m = readManifest('ferry-daemonset.yaml')
  assert.equal(m.kind, 'DaemonSet')
  assert.ok(m.pod.tolerations?.length, 'tolerations')
  const port = m.ferry.ports?.[0]
  assert.ok(m.pod.hostNetwork || port?.hostPort === port?.containerPort, 'reachable on the node')
  const data = m.pod.volumes?.find((v) => v.hostPath)
  assert.ok(data?.hostPath?.path.startsWith('/var/lib/'))
  const hostname = m.ferry.env?.find((e) => e.name === 'ENV_HOSTNAME')
  assert.equal(hostname?.valueFrom?.fieldRef?.fieldPath, 'spec.nodeName')
  assert.equal(configOf(m).config.agent.hostname, 'node-1')
  // fsGroup does not reach hostPath: one root step hands the directory to the numeric user.
  const owner = containers(m).find((c) => c.command?.includes('chown'))
  assert.deepEqual(owner?.command, ['chown', '-R', `${UID}:${UID}`, '/var/lib/ferry'])
  assert.ok(owner?.volumeMounts?.some((v) => v.name === data?.name))
  const others = containers(m).filter((c) => c !== owner)
  for (const c of others) assert.equal(effective(m, c).runAsUser, UID, c.name)
})
