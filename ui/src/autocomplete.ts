/**
 * Completion in the query box: while typing, a list under the box offers the sources, fields,
 * aggregates and tags that fit the cursor's place (complete.ts) from the catalog (catalog.ts).
 * Arrow keys move, Enter or Tab take the choice, Escape closes; a click takes one too.
 * Ctrl+Enter still runs the query. The list is a listbox the textarea points at
 * (`aria-activedescendant`), so a screen reader follows the choice.
 */
import { columnsOf, sourceNames } from './catalog.js'
import { AGGREGATES, applyChoice, contextAt, matches, type CompleteContext } from './complete.js'
import { h } from './dom.js'

/** The names that fit a context. */
async function namesFor(ctx: CompleteContext): Promise<string[]> {
  if (ctx.kind === 'source') return sourceNames()
  if (!ctx.source) return []
  const cols = await columnsOf(ctx.source)
  const fields = cols.fields.map((f) => f.name)
  if (ctx.kind === 'tag') return cols.tags
  if (ctx.kind === 'filter') return [...cols.tags, ...fields]
  return [...fields, ...AGGREGATES]
}

/** Wraps `box` with its suggestion list; `run` is what Ctrl+Enter does. */
export function withCompletion(box: HTMLTextAreaElement, run: () => void): HTMLElement {
  const list = h('ul', { class: 'suggest', role: 'listbox', id: 'suggest' })
  box.setAttribute('aria-controls', 'suggest')
  box.setAttribute('aria-autocomplete', 'list')
  let shown: { ctx: CompleteContext; names: string[]; at: number } | null = null
  let asked = 0
  const close = () => {
    shown = null
    list.replaceChildren()
    list.hidden = true
    box.removeAttribute('aria-activedescendant')
  }
  const mark = (at: number) => {
    if (!shown) return
    shown.at = (at + shown.names.length) % shown.names.length
    list
      .querySelectorAll('li')
      .forEach((li, i) => li.setAttribute('aria-selected', String(i === shown!.at)))
    box.setAttribute('aria-activedescendant', `suggest-${shown.at}`)
  }
  const take = (name: string) => {
    if (!shown) return
    const out = applyChoice(box.value, box.selectionStart, shown.ctx, name)
    box.value = out.text
    box.setSelectionRange(out.pos, out.pos)
    close()
    void update()
  }
  const update = async () => {
    const ctx = contextAt(box.value, box.selectionStart)
    const ticket = ++asked
    const names = ctx ? matches(await namesFor(ctx).catch(() => []), ctx.prefix) : []
    // A later keystroke has asked again: its answer wins.
    if (ticket !== asked) return
    if (!ctx || !names.length || document.activeElement !== box) return close()
    shown = { ctx, names, at: 0 }
    list.replaceChildren(
      ...names.map((n, i) =>
        h(
          'li',
          { role: 'option', id: `suggest-${i}`, onmousedown: (e) => (e.preventDefault(), take(n)) },
          n,
        ),
      ),
    )
    list.hidden = false
    mark(0)
  }
  box.addEventListener('input', () => void update())
  box.addEventListener('click', () => void update())
  box.addEventListener('blur', close)
  box.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) return (close(), run())
    if (!shown) return
    const moves: Record<string, number> = { ArrowDown: 1, ArrowUp: -1 }
    if (e.key in moves) mark(shown.at + moves[e.key])
    else if (e.key === 'Enter' || e.key === 'Tab') take(shown.names[shown.at])
    else if (e.key === 'Escape') close()
    else return
    e.preventDefault()
  })
  close()
  return h('div', { class: 'completing' }, box, list)
}
