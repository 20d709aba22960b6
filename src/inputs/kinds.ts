/** Every input Ferry has, by the reference agent's input name. */
import type { AnyInputKind } from './input.js'
import { cpuInput } from './host/cpu.js'
import { diskInput } from './host/disk.js'
import { diskioInput } from './host/diskio.js'
import { hostProcessesInput } from './host/host-processes.js'
import { hostobjectInput } from './host/hostobject.js'
import { memInput } from './host/mem.js'
import { netInput } from './host/net.js'
import { promInput } from './prom/prom.js'
import { swapInput } from './host/swap.js'
import { systemInput } from './host/system.js'
import { loggingInput } from './logging/logging.js'

export const INPUT_KINDS: ReadonlyMap<string, AnyInputKind> = new Map(
  [
    cpuInput,
    diskInput,
    diskioInput,
    memInput,
    swapInput,
    systemInput,
    hostobjectInput,
    netInput,
    hostProcessesInput,
    promInput,
    loggingInput,
  ].map((k) => [k.name, k]),
)
