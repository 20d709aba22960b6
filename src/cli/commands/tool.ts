/** `ferry tool ipinfo IP`: the geo tags RUM points from this address would get. */
import { isIP } from 'node:net'
import { FerryError } from '../../errors.js'
import type { CommandSpec, Context } from '../spec.js'

async function ipinfo(ctx: Context): Promise<void> {
  const [ip] = ctx.positionals
  if (!isIP(ip))
    throw new FerryError('usage', `tool ipinfo: ${JSON.stringify(ip)} is not an IP address`)
  // The IP database (about 150 MB) loads only for this command.
  const { IpDb } = await import('../../rum/geo/ipdb.js')
  const { GeoTagger } = await import('../../rum/geo/tags.js')
  const tagger = new GeoTagger(new IpDb())
  await tagger.ready()
  const tags = Object.fromEntries(tagger.tags(ip))
  if (ctx.values.json) console.log(JSON.stringify(tags))
  else for (const [k, v] of Object.entries(tags)) console.log(`${k.padEnd(10)} ${v}`)
}

export const TOOL_COMMANDS: CommandSpec[] = [
  {
    name: 'tool ipinfo',
    usage: 'tool ipinfo IP [--json]',
    summary: 'show the city, province, country and ISP tags RUM points from IP would get',
    positionals: [1, 1],
    options: { json: { type: 'boolean', help: 'print the tags as JSON' } },
    run: ipinfo,
  },
]
