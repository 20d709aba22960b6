/** A tiny element builder: text children are always text nodes, so data is never parsed as HTML. */
type Child = Node | string | number | null | undefined | false
type Attrs = Record<string, string | boolean | ((e: Event) => void) | undefined>

export function h(tag: string, attrs: Attrs = {}, ...children: Child[]): HTMLElement {
  const el = document.createElement(tag)
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === false) continue
    if (typeof v === 'function') el.addEventListener(k.replace(/^on/, ''), v)
    else if (v === true) el.setAttribute(k, '')
    else if (k === 'value') (el as HTMLInputElement).value = v
    else el.setAttribute(k, v)
  }
  append(el, ...children)
  return el
}

export function append(el: HTMLElement, ...children: Child[]): HTMLElement {
  for (const c of children)
    if (c !== null && c !== undefined && c !== false)
      el.append(typeof c === 'number' ? String(c) : c)
  return el
}

/** Replaces an element's content. */
export function fill(el: HTMLElement, ...children: Child[]): HTMLElement {
  el.replaceChildren()
  return append(el, ...children)
}

/** A table row of cells (`td`, or `th` for a header row). */
export function row(cells: Child[], header = false): HTMLElement {
  return h('tr', {}, ...cells.map((c) => h(header ? 'th' : 'td', {}, c)))
}

export function select(
  name: string,
  options: [string, string][],
  value: string,
): HTMLSelectElement {
  const s = h('select', { name }, ...options.map(([v, label]) => h('option', { value: v }, label)))
  const el = s as HTMLSelectElement
  el.value = value
  return el
}

export function formatTime(ms: number): string {
  const d = new Date(ms)
  const pad = (n: number, w = 2) => String(n).padStart(w, '0')
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}.${pad(d.getMilliseconds(), 3)}`
}

export function formatBytes(n: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB']
  let i = 0
  while (n >= 1024 && i < units.length - 1) {
    n /= 1024
    i++
  }
  return `${n.toFixed(i ? 1 : 0)} ${units[i]}`
}
