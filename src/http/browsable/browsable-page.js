// The browsable API page's one script (served as a file: the page's policy runs nothing inline).
// It sends the page's forms with the session: the login, the logout, the JSON editor's POST, PUT
// and PATCH, and DELETE, each unsafe request with the session's CSRF token (the csrftoken cookie,
// readable by script as Django's), and shows the API's answer in the page. Every value is put in
// the page as text, never as markup.
'use strict'

/** The csrftoken cookie's value; '' when there is none. */
function csrfToken() {
  for (const part of document.cookie.split(';')) {
    const eq = part.indexOf('=')
    if (eq > 0 && part.slice(0, eq).trim() === 'csrftoken')
      return decodeURIComponent(part.slice(eq + 1).trim())
  }
  return ''
}

/** An unsafe request on the session, asking for JSON. */
function send(method, path, body) {
  const headers = { accept: 'application/json', 'x-csrftoken': csrfToken() }
  if (body !== undefined) headers['content-type'] = 'application/json'
  return fetch(path, { method, headers, body, credentials: 'same-origin' })
}

function element(name, className, text) {
  const node = document.createElement(name)
  if (className) node.className = className
  if (text !== undefined) node.textContent = text
  return node
}

/** Whether `value` is a URL on this box: only those are links. */
function isOwnUrl(value) {
  if (!/^https?:\/\//i.test(value)) return false
  try {
    return new URL(value).origin === location.origin
  } catch {
    return false
  }
}

/** `value` as indented JSON into `into`, the box's URLs as links (as the server renders it). */
function appendJson(into, value, depth) {
  const pad = '    '.repeat(depth + 1)
  const end = '    '.repeat(depth)
  const text = (t) => into.append(document.createTextNode(t))
  if (Array.isArray(value)) {
    if (value.length === 0) return text('[]')
    text('[\n')
    value.forEach((item, i) => {
      text(pad)
      appendJson(into, item, depth + 1)
      text(i < value.length - 1 ? ',\n' : '\n')
    })
    return text(`${end}]`)
  }
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value)
    if (entries.length === 0) return text('{}')
    text('{\n')
    entries.forEach(([key, item], i) => {
      text(pad)
      into.append(element('span', 'key', JSON.stringify(key)))
      text(': ')
      appendJson(into, item, depth + 1)
      text(i < entries.length - 1 ? ',\n' : '\n')
    })
    return text(`${end}}`)
  }
  if (typeof value === 'string' && isOwnUrl(value)) {
    const link = element('a', 'string', JSON.stringify(value))
    link.href = value
    return into.append(link)
  }
  const kind = value === null ? 'null' : typeof value
  into.append(element('span', kind, JSON.stringify(value)))
}

/** Shows a write's answer where the page's own answer was: request line, status, headers, body. */
async function showAnswer(method, path, response) {
  // The whole answer first, so the page never shows a new request line over the old answer.
  const body = await response.text()
  const requestLine = document.getElementById('request-line')
  const answer = document.getElementById('answer')
  requestLine.replaceChildren(element('b', '', method), document.createTextNode(` ${path}`))
  const status = element(
    'b',
    response.status >= 400 ? 'status failed' : 'status',
    `HTTP ${response.status} ${response.statusText}`.trimEnd(),
  )
  answer.replaceChildren(status)
  for (const name of ['Allow', 'Content-Type', 'Location', 'Retry-After']) {
    const value = response.headers.get(name)
    if (value === null) continue
    answer.append(
      document.createTextNode('\n'),
      element('b', '', `${name}:`),
      document.createTextNode(` ${value}`),
    )
  }
  if (body !== '') {
    answer.append(document.createTextNode('\n\n'))
    let parsed
    try {
      parsed = JSON.parse(body)
    } catch {
      answer.append(document.createTextNode(body))
      return
    }
    appendJson(answer, parsed, 0)
  }
  document.getElementById('response').scrollIntoView({ block: 'start' })
}

function failed(error) {
  const answer = document.getElementById('answer')
  if (answer) answer.replaceChildren(element('b', 'status', `The request could not be sent: ${error}`))
}

function start() {
  const login = document.getElementById('login-form')
  if (login) {
    login.addEventListener('submit', async (event) => {
      event.preventDefault()
      const fields = new FormData(login)
      const output = document.getElementById('login-error')
      output.textContent = ''
      try {
        const response = await fetch('/api/login/', {
          method: 'POST',
          headers: { accept: 'application/json', 'content-type': 'application/json' },
          body: JSON.stringify({ username: fields.get('username'), password: fields.get('password') }),
          credentials: 'same-origin',
        })
        if (response.ok) return location.reload()
        const body = await response.json().catch(() => ({}))
        const messages = body.non_field_errors ?? (body.detail ? [body.detail] : Object.values(body).flat())
        output.textContent = messages.join(' ') || `HTTP ${response.status}`
      } catch (error) {
        output.textContent = String(error)
      }
    })
  }

  const logout = document.getElementById('logout')
  if (logout) {
    logout.addEventListener('click', async () => {
      await send('POST', '/api/logout/').catch(() => undefined)
      location.reload()
    })
  }

  // Empty filters are left out of the URL (the API reads an empty one as not given).
  const filters = document.getElementById('filters')
  if (filters) {
    filters.addEventListener('submit', () => {
      for (const field of filters.querySelectorAll('input, select'))
        if (field.name && field.value === '') field.disabled = true
      setTimeout(() => filters.querySelectorAll('[disabled]').forEach((field) => (field.disabled = false)))
    })
  }

  const write = document.getElementById('write')
  if (write) {
    write.addEventListener('submit', async (event) => {
      event.preventDefault()
      const method = event.submitter?.value ?? 'POST'
      const path = write.dataset.path
      try {
        await showAnswer(method, path, await send(method, path, document.getElementById('content').value))
      } catch (error) {
        failed(error)
      }
    })
  }

  const remove = document.getElementById('delete')
  if (remove) {
    remove.addEventListener('click', async () => {
      if (!confirm('Delete this record?')) return
      const path = remove.dataset.path
      try {
        await showAnswer('DELETE', path, await send('DELETE', path))
      } catch (error) {
        failed(error)
      }
    })
  }
}

if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start)
else start()
