/**
 * The page's text as HTML: every value escaped (a customer named `<script>` shows as text), a JSON
 * body indented with the box's own URLs as links, and the document's Markdown descriptions in the
 * few forms they use.
 */

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
}

/** Text made safe for an element's content or a quoted attribute. */
export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => ESCAPES[c]!)

/**
 * A string that is a URL on one of `origins` (the box as the request reached it, and its public
 * URL): shown as a link. Any other URL stays text, so the page links nowhere else.
 */
export function isOwnUrl(value: string, origins: readonly string[]): boolean {
  if (!/^https?:\/\//i.test(value)) return false
  try {
    return origins.includes(new URL(value).origin)
  } catch {
    return false
  }
}

const INDENT = '    '

/** `value` as JSON indented by four, as DRF's page shows it, escaped, the box's URLs links. */
export function jsonHtml(value: unknown, origins: readonly string[], depth = 0): string {
  const pad = INDENT.repeat(depth + 1)
  const end = INDENT.repeat(depth)
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]'
    return `[\n${value.map((item) => pad + jsonHtml(item, origins, depth + 1)).join(',\n')}\n${end}]`
  }
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value)
    if (entries.length === 0) return '{}'
    const members = entries.map(
      ([key, item]) =>
        `${pad}<span class="key">${escapeHtml(JSON.stringify(key))}</span>: ${jsonHtml(item, origins, depth + 1)}`,
    )
    return `{\n${members.join(',\n')}\n${end}}`
  }
  if (typeof value === 'string') {
    const text = escapeHtml(JSON.stringify(value))
    return isOwnUrl(value, origins)
      ? `<a class="string" href="${escapeHtml(value)}" rel="nofollow">${text}</a>`
      : `<span class="string">${text}</span>`
  }
  const kind = value === null ? 'null' : typeof value
  return `<span class="${kind}">${escapeHtml(JSON.stringify(value) ?? 'null')}</span>`
}

/** Inline Markdown: `code` and **bold**, on text already escaped. */
const inline = (escaped: string) =>
  escaped.replace(/`([^`]+)`/g, '<code>$1</code>').replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>')

/**
 * The document's descriptions as HTML: paragraphs, `-` lists, tables kept as preformatted text,
 * code spans and bold. Escaped before any markup is added, so a description cannot inject any.
 */
export function markdownHtml(markdown: string): string {
  return markdown
    .split(/\n\s*\n/)
    .map((block) => block.trim())
    .filter((block) => block !== '')
    .map((block) => {
      const lines = block.split('\n')
      if (lines.every((line) => line.trimStart().startsWith('|')))
        return `<pre class="table">${escapeHtml(block)}</pre>`
      if (lines[0]!.startsWith('- ')) {
        const items: string[] = []
        for (const line of lines) {
          if (line.startsWith('- ')) items.push(line.slice(2))
          else items[items.length - 1] += ` ${line.trim()}`
        }
        return `<ul>${items.map((item) => `<li>${inline(escapeHtml(item))}</li>`).join('')}</ul>`
      }
      if (lines[0]!.startsWith('#')) {
        return `<h3>${inline(escapeHtml(lines[0]!.replace(/^#+\s*/, '')))}</h3>${lines.length > 1 ? `<p>${inline(escapeHtml(lines.slice(1).join(' ')))}</p>` : ''}`
      }
      return `<p>${inline(escapeHtml(lines.join(' ')))}</p>`
    })
    .join('\n')
}
