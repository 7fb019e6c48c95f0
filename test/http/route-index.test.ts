import { describe, expect, test } from 'bun:test'
import { RouteIndex } from '../../src/http/route-index.ts'

const routes = [
  { method: 'GET', path: '/api/customers/' },
  { method: 'POST', path: '/api/customers/' },
  { method: 'GET', path: '/api/customers/:customer_id/' },
  { method: 'GET', path: '/api/customers/export/' },
  { method: 'GET', path: '/api/customers/:customer_id/alerts/:id/' },
  { method: 'GET', path: '/healthz' },
]

describe('RouteIndex.template', () => {
  const index = new RouteIndex(() => routes)
  const cases: Array<[string, string, string | null]> = [
    ['a collection', '/api/customers/', '/api/customers/'],
    ['the same path without its final slash', '/api/customers', '/api/customers/'],
    ['a record: the parameter, never the id', '/api/customers/42/', '/api/customers/:customer_id/'],
    ['a static segment before a parameter', '/api/customers/export/', '/api/customers/export/'],
    ['a nested record', '/api/customers/42/alerts/7/', '/api/customers/:customer_id/alerts/:id/'],
    [
      'a static segment that leads nowhere gives way to the parameter',
      '/api/customers/export/alerts/7/',
      '/api/customers/:customer_id/alerts/:id/',
    ],
    ['a path registered without a final slash, asked with one', '/healthz/', '/healthz'],
    ['a path one segment short of any route', '/api/', null],
    ['a path past every route', '/api/customers/42/alerts/7/extra/', null],
    ['an empty segment where a parameter stands', '/api/customers//alerts/7/', null],
    ['an unknown path', '/wp-login.php', null],
  ]
  for (const [name, path, template] of cases) {
    test(`${name}: ${path} -> ${template}`, () => {
      expect(index.template(path)).toBe(template)
    })
  }
})
