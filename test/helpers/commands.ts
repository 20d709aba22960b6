/** Whether an outside command (from Debian's packages) is installed here. */
import { spawnSync } from 'node:child_process'

export function hasCommand(cmd: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${cmd}`]).status === 0
}
