/** The shell examples of a Markdown file: every ```sh block, split into commands. */
import fs from 'node:fs'

export interface Example {
  file: string
  /** 1-based line of the command's first line. */
  line: number
  command: string
}

/** The terminator of a here-document the line opens (`cat > f <<'EOF'`), if any. */
const heredoc = (text: string) => /<<-?\s*['"]?(\w+)['"]?\s*$/.exec(text)?.[1] ?? null

/**
 * Lines ending in `\` continue the command, as do the lines of a here-document up to its
 * terminator; lines that are only a comment are dropped.
 */
export function shellExamples(file: string, label = file): Example[] {
  const lines = fs.readFileSync(file, 'utf8').split('\n')
  const out: Example[] = []
  let inBlock = false
  let current: Example | null = null
  let until: string | null = null
  lines.forEach((text, i) => {
    if (/^```/.test(text) && !until) {
      inBlock = !inBlock && /^```(sh|bash|shell)\s*$/.test(text)
      return
    }
    if (!inBlock) return
    if (current) current.command += `\n${text}`
    else if (text.trim() && !/^\s*#/.test(text))
      current = { file: label, line: i + 1, command: text }
    if (!current) return
    if (until) until = text === until ? null : until
    else until = heredoc(text)
    if (!until && !text.endsWith('\\')) {
      out.push(current)
      current = null
    }
  })
  return out
}
