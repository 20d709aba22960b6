/**
 * Which inputs run, and with what settings: every instance the input files declare, plus the
 * `default_enabled_inputs` that no file configures, with their defaults. In container mode the
 * defaults apply only when ENV_DEFAULT_ENABLED_INPUTS names them: a sidecar observes its
 * application, not the node (the DaemonSet enables the host inputs by that variable).
 */
import path from 'node:path'
import type { LoadedConfig } from '../config/load.js'
import { FerryError } from '../errors.js'
import type { AnyInputKind } from './input.js'
import { confFiles, readInputFiles, validateInstance, type InputConf } from './conf/load.js'

export function defaultInputs(loaded: LoadedConfig): readonly string[] {
  const fromEnv = loaded.fromEnv.includes('ENV_DEFAULT_ENABLED_INPUTS')
  return loaded.mode === 'container' && !fromEnv ? [] : loaded.config.agent.default_enabled_inputs
}

/** Throws configInvalid listing every problem of every input file. */
export function planInputs(
  loaded: LoadedConfig,
  kinds: ReadonlyMap<string, AnyInputKind>,
): InputConf[] {
  const errors: string[] = []
  const files = confFiles(path.dirname(loaded.path), loaded.path)
  const confs = readInputFiles(files, kinds, errors)
  const where = loaded.fromEnv.includes('ENV_DEFAULT_ENABLED_INPUTS')
    ? 'ENV_DEFAULT_ENABLED_INPUTS'
    : `${loaded.file ?? loaded.path}:agent.default_enabled_inputs`
  for (const name of new Set(defaultInputs(loaded))) {
    const kind = kinds.get(name)
    if (!kind) errors.push(`${where}: unknown input ${JSON.stringify(name)}`)
    else if (!confs.some((c) => c.kind === kind))
      confs.push({ kind, conf: validateInstance(kind, {}, `inputs.${name}`, errors), file: '' })
  }
  if (errors.length) throw new FerryError('configInvalid', errors.join('\n'))
  return confs
}
