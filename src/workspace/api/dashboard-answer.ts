/**
 * Dashboard answers of the Open API in the documented shapes. The documentation shows one record
 * with small differences per operation (`tag_info` is a list on create, keyed by dashboard on
 * get, `{sceneInfo, tagInfo}` on list and modify; list and modify add `updatorInfo`; modify adds
 * `old_name`), and each operation answers its own. Fields of the hosted service Ferry has no
 * notion of carry their documented neutral values (`status` 0, `deleteAt` -1, `ownerType` node,
 * `type` CUSTOM, empty bind sets). Every documented request field is answered too (`desc`,
 * `tagNames`, `templateInfo`, `identifier`, visibility), so nothing a client sent is lost.
 *
 * Tag and chart ids are derived, not stored: a tag's id is a digest of its workspace and name,
 * a chart's of its dashboard and position in the template, so they are the same on every read.
 */
import crypto from 'node:crypto'
import type { Dashboard } from '../store/dashboards.js'

export interface TagInfo {
  id: string
  name: string
}

/** Key id -> key name, for `updatorInfo`. */
export type KeyNames = Map<string, string>

const digest = (...parts: string[]) =>
  crypto.createHash('sha256').update(parts.join('\0')).digest('hex').slice(0, 32)

export const tagInfo = (d: Dashboard): TagInfo[] =>
  d.tagNames.map((name) => ({ id: `tag_${digest(d.workspaceUUID, name)}`, name }))

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v)

function templateCharts(d: Dashboard): unknown[] {
  const main = d.templateInfo.main
  return isObject(main) && Array.isArray(main.charts) ? main.charts : []
}

/** One entry per template chart with a position, as the charts of the dashboard are laid out. */
function chartPos(d: Dashboard) {
  return templateCharts(d).flatMap((c, i) =>
    isObject(c) && isObject(c.pos)
      ? [{ chartUUID: `chrt_${digest(d.uuid, String(i))}`, pos: c.pos }]
      : [],
  )
}

function record(d: Dashboard) {
  return {
    chartGroupPos: [],
    chartPos: chartPos(d),
    createAt: d.createAt,
    createdWay: d.createdWay,
    creator: d.creator,
    dashboardBindSet: [],
    deleteAt: -1,
    extend: d.extend,
    iconSet: isObject(d.templateInfo.iconSet) ? d.templateInfo.iconSet : {},
    id: d.num,
    mapping: d.mapping,
    name: d.name,
    ownerType: 'node',
    status: 0,
    type: 'CUSTOM',
    updateAt: d.updateAt,
    updator: d.updator,
    uuid: d.uuid,
    workspaceUUID: d.workspaceUUID,
    // The documented request fields, answered as stored.
    desc: d.desc,
    identifier: d.identifier,
    isPublic: d.isPublic,
    permissionSet: d.permissionSet,
    readPermissionSet: d.readPermissionSet,
    tagNames: d.tagNames,
    templateInfo: d.templateInfo,
  }
}

const updatorInfo = (d: Dashboard, keys: KeyNames) => ({
  iconUrl: '',
  name: keys.get(d.updator) ?? '',
  username: `AK(${d.updator})`,
})

export const createAnswer = (d: Dashboard) => ({ ...record(d), tag_info: tagInfo(d) })

export const getAnswer = (d: Dashboard) => ({ ...record(d), tag_info: { [d.uuid]: tagInfo(d) } })

export const listAnswer = (d: Dashboard, keys: KeyNames) => ({
  ...record(d),
  isFavorite: false,
  tag_info: { sceneInfo: [], tagInfo: tagInfo(d) },
  updatorInfo: updatorInfo(d, keys),
})

export const modifyAnswer = (d: Dashboard, oldName: string, keys: KeyNames) => ({
  ...record(d),
  dashboardBidding: {},
  old_name: oldName,
  tag_info: { sceneInfo: [], tagInfo: tagInfo(d) },
  updatorInfo: updatorInfo(d, keys),
})

export const importAnswer = (d: Dashboard) => ({ ...record(d), tagInfo: tagInfo(d) })

/** The documented delete answer: the deleted dashboard's id and name. */
export const deleteAnswer = (d: Dashboard) => ({ [d.uuid]: d.name })

/**
 * The template of a dashboard (export): what was imported or created with, over the documented
 * defaults, with the dashboard's own name, tags, `extend` and mapping, so that importing it
 * again (or creating from it) gives the same dashboard.
 */
export function exportAnswer(d: Dashboard) {
  return {
    dashboardBindSet: [],
    dashboardOwnerType: 'node',
    dashboardType: 'CUSTOM',
    iconSet: {},
    main: { charts: [], groups: [], type: 'template', vars: [] },
    summary: '',
    tags: [],
    thumbnail: '',
    ...d.templateInfo,
    dashboardExtend: d.extend,
    dashboardMapping: d.mapping,
    tagInfo: tagInfo(d),
    title: d.name,
  }
}
