import { escapeHtml as e, jsonHtml, markdownHtml } from './html.ts'
import type { FilterField } from './describe.ts'

/** What one browsable page shows: the request, the API's answer to it, and what may be done next. */
export interface PageContent {
  /** The request line's method and its path with the query, as asked. */
  method: string
  target: string
  path: string
  /** The query as asked, for the filter form's values. */
  query: URLSearchParams
  status: number
  /** The answer's headers shown under the status line, in order. */
  headers: Array<[string, string]>
  /** The answer's body: parsed JSON, or its text; undefined for none. */
  body: unknown
  name: string
  description: string
  /** Where the box's own URLs start: the request's origin and the public URL. */
  origins: readonly string[]
  /** The staff user's email when logged in. */
  user: string | null
  /** The path's segments with a link for each one served with GET. */
  crumbs: Array<{ label: string; href: string | null }>
  filters: FilterField[]
  /** The write methods the user may send here, with the editor's starting text for them. */
  writes: { methods: string[]; text: string } | null
  mayDelete: boolean
  assets: { script: string; styles: string }
}

/** The reason phrases the page prints beside a status, as DRF's page does. */
const REASONS: Record<number, string> = {
  200: 'OK',
  201: 'Created',
  204: 'No Content',
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  413: 'Payload Too Large',
  414: 'URI Too Long',
  415: 'Unsupported Media Type',
  429: 'Too Many Requests',
  431: 'Request Header Fields Too Large',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
}

export const statusLine = (status: number) => `HTTP ${status} ${REASONS[status] ?? ''}`.trimEnd()

function header(page: PageContent): string {
  const who =
    page.user === null
      ? `<details class="login" id="login"${page.status === 401 ? ' open' : ''}>
<summary>Log in</summary>
<form id="login-form" method="post" action="/api/login/">
<label>Email <input name="username" type="email" autocomplete="username" required></label>
<label>Password <input name="password" type="password" autocomplete="current-password" required></label>
<button type="submit">Log in</button>
<output id="login-error" class="error"></output>
</form>
</details>`
      : `<span class="user">${e(page.user)}</span> <button type="button" id="logout" class="link">Log out</button>`
  return `<header class="bar"><a class="brand" href="/api/">Belay API</a><nav class="who">${who}</nav></header>`
}

const crumbs = (page: PageContent) =>
  `<nav class="crumbs" aria-label="Breadcrumb">${page.crumbs
    .map((c) => (c.href === null ? `<span>${e(c.label)}</span>` : `<a href="${e(c.href)}">${e(c.label)}</a>`))
    .join(' <span class="sep">/</span> ')}</nav>`

function pagination(page: PageContent): string {
  const body = page.body as Record<string, unknown> | null
  if (body === null || typeof body !== 'object' || !('next' in body) || !('previous' in body)) return ''
  const link = (href: unknown, label: string, rel: string) =>
    typeof href === 'string'
      ? `<a href="${e(href)}" rel="${rel}">${label}</a>`
      : `<span class="disabled">${label}</span>`
  const count = typeof body.count === 'number' ? `<span class="count">${body.count} in all</span>` : ''
  return `<nav class="pages" aria-label="Pages">${link(body.previous, '&laquo; Previous', 'prev')} ${link(body.next, 'Next &raquo;', 'next')} ${count}</nav>`
}

function answer(page: PageContent): string {
  const headers = page.headers.map(([name, value]) => `<b>${e(name)}:</b> ${e(value)}`).join('\n')
  const body =
    page.body === undefined
      ? ''
      : typeof page.body === 'string'
        ? `\n\n${e(page.body)}`
        : `\n\n${jsonHtml(page.body, page.origins)}`
  return `<section class="response" id="response" aria-label="Response">
<pre class="request" id="request-line"><b>${e(page.method)}</b> ${e(page.target)}</pre>
<pre class="answer" id="answer"><b class="status${page.status >= 400 ? ' failed' : ''}">${e(statusLine(page.status))}</b>
${headers}${body}</pre>
</section>`
}

function filterForm(page: PageContent): string {
  if (page.filters.length === 0) return ''
  const fields = page.filters.map((f) => {
    const value = page.query.get(f.name) ?? ''
    const control =
      f.choices === null
        ? `<input name="${e(f.name)}" value="${e(value)}">`
        : `<select name="${e(f.name)}"><option value="">any</option>${f.choices
            .map((c) => `<option${c === value ? ' selected' : ''}>${e(c)}</option>`)
            .join('')}</select>`
    return `<label><span class="name">${e(f.name)}</span>${control}<small>${e(f.description)}</small></label>`
  })
  const format = page.query.get('format')
  const keep = format === 'api' ? '<input type="hidden" name="format" value="api">' : ''
  return `<section class="panel" aria-labelledby="filters-title">
<h2 id="filters-title">Filters</h2>
<form id="filters" method="get" action="${e(page.path)}">${fields.join('\n')}${keep}
<div class="buttons"><button type="submit">Filter</button> <a href="${e(page.path)}${format === 'api' ? '?format=api' : ''}">Clear</a></div>
</form>
</section>`
}

function writeForm(page: PageContent): string {
  if (page.writes === null) return ''
  const buttons = page.writes.methods
    .map((m) => `<button type="submit" name="method" value="${e(m)}">${e(m)}</button>`)
    .join(' ')
  return `<section class="panel" aria-labelledby="write-title">
<h2 id="write-title">Send</h2>
<form id="write" data-path="${e(page.path)}">
<label for="content">Content (application/json)</label>
<textarea id="content" name="content" rows="14" spellcheck="false">${e(page.writes.text)}</textarea>
<div class="buttons">${buttons}</div>
</form>
</section>`
}

/** The whole page. Nothing inline runs: its one script and stylesheet are files of the box's own. */
export function renderPage(page: PageContent): string {
  const remove = page.mayDelete
    ? `<button type="button" id="delete" class="danger" data-path="${e(page.path)}">DELETE</button>`
    : ''
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<title>${e(page.name)} – Belay API</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${e(page.assets.styles)}">
<script src="${e(page.assets.script)}" defer></script>
</head>
<body>
${header(page)}
<main>
${crumbs(page)}
<div class="title"><h1>${e(page.name)}</h1>${remove}</div>
<div class="description">${markdownHtml(page.description)}</div>
${pagination(page)}
${answer(page)}
${filterForm(page)}
${writeForm(page)}
</main>
</body>
</html>
`
}
