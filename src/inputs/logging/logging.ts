/**
 * `logging` (reference input `logging`): tails log files. Keys keep the reference's names;
 * `maximum_length` (the reference's former name for it) bounds one line in bytes.
 */
import { createHash } from 'node:crypto'
import path from 'node:path'
import { nonNegative, positive } from '../../config/checks.js'
import { defineInput } from '../input.js'
import { TailInput } from './tail-input.js'

const validRegExp = (v: string) => {
  try {
    new RegExp(v)
    return undefined
  } catch (e) {
    return `not a regular expression: ${(e as Error).message}`
  }
}

const SCHEMA = {
  logfiles: { type: 'strings', default: [] },
  ignore: { type: 'strings', default: [] },
  source: { type: 'string', default: 'default' },
  service: { type: 'string', default: '' },
  pipeline: { type: 'string', default: '' },
  character_encoding: { type: 'string', default: '', values: ['', 'utf-8', 'gbk', 'gb18030'] },
  multiline_match: { type: 'string', default: '', check: validRegExp },
  from_beginning: { type: 'bool', default: false },
  remove_ansi_escape_codes: { type: 'bool', default: false },
  ignore_dead_log: { type: 'duration', default: 3_600_000, check: nonNegative },
  maximum_length: { type: 'int', default: 32_768, check: positive },
  tags: { type: 'tags', default: {} },
} as const

/** One store per instance: two instances may follow the same file with different sources. */
function storeFile(dataDir: string, source: string, logfiles: string[]): string {
  const id = createHash('sha256')
    .update(JSON.stringify([source, logfiles]))
    .digest('hex')
  return path.join(dataDir, 'tail', `${source}-${id.slice(0, 12)}.json`)
}

export const loggingInput = defineInput({
  name: 'logging',
  schema: SCHEMA,
  create: (c, env) =>
    new TailInput(
      {
        name: 'logging',
        logfiles: c.logfiles,
        ignore: c.ignore,
        source: c.source || 'default',
        service: c.service || c.source || 'default',
        // The reference names a script file (`nginx.p`); scripts are selected by their name.
        pipeline: (c.pipeline || c.source || 'default').replace(/\.(p|js)$/, ''),
        fromBeginning: c.from_beginning,
        ignoreDeadLog: c.ignore_dead_log,
        pollMs: 250,
        storeFile: storeFile(env.dataDir, c.source, c.logfiles),
        tail: {
          encoding: c.character_encoding || 'utf-8',
          maxLength: c.maximum_length,
          multiline: c.multiline_match ? new RegExp(c.multiline_match) : null,
          removeAnsi: c.remove_ansi_escape_codes,
          chunkBytes: 64 * 1024,
          batch: 500,
        },
      },
      env,
    ),
})
