/** The shipped Kubernetes manifests, parsed, with the parts the deployment tests look at. */
import fs from 'node:fs'
import { parseAllDocuments } from 'yaml'

/** The fields of the Kubernetes objects the tests read. */
export interface SecurityContext {
  runAsNonRoot?: boolean
  runAsUser?: number
  runAsGroup?: number
  fsGroup?: number
}

export interface Probe {
  exec?: { command: string[] }
  httpGet?: { path: string; port: number | string }
}

export interface EnvVar {
  name: string
  value?: string
  valueFrom?: { secretKeyRef?: object; fieldRef?: { fieldPath: string } }
}

export interface Container {
  name: string
  command?: string[]
  restartPolicy?: string
  env?: EnvVar[]
  ports?: { name?: string; containerPort: number; hostPort?: number }[]
  securityContext?: SecurityContext
  startupProbe?: Probe
  readinessProbe?: Probe
  livenessProbe?: Probe
  volumeMounts?: { name: string; mountPath: string; readOnly?: boolean }[]
}

export interface Volume {
  name: string
  emptyDir?: { sizeLimit?: string }
  hostPath?: { path: string; type?: string }
  configMap?: { name: string }
}

export interface PodSpec {
  initContainers?: Container[]
  containers: Container[]
  securityContext?: SecurityContext
  volumes?: Volume[]
  tolerations?: object[]
  hostNetwork?: boolean
}

export interface Manifest {
  file: string
  text: string
  kind: string
  annotations: Record<string, string>
  pod: PodSpec
  /** The container named `ferry`, wherever the manifest puts it. */
  ferry: Container
  ferryIsInit: boolean
  /** The file's ConfigMaps: name -> file name -> contents. */
  configMaps: Record<string, Record<string, string>>
}

const DIR = new URL('../../deploy/kubernetes/', import.meta.url)

export const MANIFEST_FILES = fs.readdirSync(DIR).filter((f) => f.endsWith('.yaml'))

export function readManifest(file: string): Manifest {
  const text = fs.readFileSync(new URL(file, DIR), 'utf8')
  // A file may hold a ConfigMap beside the workload (`---`-separated documents).
  const docs = parseAllDocuments(text).map((d) => d.toJS())
  const configMaps: Record<string, Record<string, string>> = {}
  for (const d of docs) if (d.kind === 'ConfigMap') configMaps[d.metadata.name] = d.data ?? {}
  const doc = docs.find((d) => d.kind !== 'ConfigMap')
  const template = doc.kind === 'Pod' ? doc : doc.spec.template
  const pod: PodSpec = template.spec
  const init: Container[] = pod.initContainers ?? []
  const main: Container[] = pod.containers ?? []
  const ferry = [...init, ...main].find((c) => c.name === 'ferry')
  if (!ferry) throw new Error(`${file}: no container named ferry`)
  return {
    file,
    text,
    kind: doc.kind,
    annotations: template.metadata?.annotations ?? {},
    pod,
    ferry,
    ferryIsInit: init.includes(ferry),
    configMaps,
  }
}

/** Every container of the pod, init containers first. */
export function containers(m: Manifest): Container[] {
  return [...(m.pod.initContainers ?? []), ...(m.pod.containers ?? [])]
}

/** The ferry container's environment; values from secrets or fields become stand-ins. */
export function ferryEnv(m: Manifest): Record<string, string> {
  const env: Record<string, string> = {}
  for (const e of m.ferry.env ?? []) {
    if (typeof e.value === 'string') env[e.name] = e.value
    else if (e.valueFrom?.secretKeyRef) env[e.name] = 'http://ws.example:9528?token=tkn_test'
    else if (e.valueFrom?.fieldRef) env[e.name] = 'node-1'
  }
  return env
}

/** A Kubernetes quantity in bytes (`2Gi`, `512Mi`, `1G`). */
export function quantityBytes(q: string): number {
  const m = /^(\d+(?:\.\d+)?)(Ki|Mi|Gi|Ti|k|M|G|T)?$/.exec(q)
  if (!m) throw new Error(`not a quantity: ${q}`)
  const unit = {
    Ki: 2 ** 10,
    Mi: 2 ** 20,
    Gi: 2 ** 30,
    Ti: 2 ** 40,
    k: 1e3,
    M: 1e6,
    G: 1e9,
    T: 1e12,
  }
  return Number(m[1]) * (m[2] ? unit[m[2] as keyof typeof unit] : 1)
}

/** The ENV_* defaults the Dockerfile's agent image sets (its `base` stage). */
export function imageEnv(): Record<string, string> {
  const docker = fs.readFileSync(new URL('../../Dockerfile', import.meta.url), 'utf8')
  const base = docker.split(/^FROM /m).find((stage) => / AS base\n/.test(stage)) ?? ''
  const env: Record<string, string> = {}
  for (const m of base.matchAll(/\b(ENV_[A-Z_]+)=(\S+)/g)) env[m[1]] = m[2]
  return env
}
