import { Type as t } from '@sinclair/typebox'
import type { ListSource } from '../db/list-source.ts'
import { invalidPage } from './errors.ts'
import type { Urls } from './urls.ts'

export const DEFAULT_PAGE_SIZE = 10
export const MAX_PAGE_SIZE = 100

export interface Page {
  number: number
  size: number
  offset: number
}

export interface Envelope<T> {
  count: number
  next: string | null
  previous: string | null
  results: T[]
}

/** Query parameters every list takes, as the OpenAPI page documents them (`readPage` reads them). */
export const pageParams = {
  page: t.Optional(
    t.Union([t.Integer({ minimum: 1 }), t.Literal('last')], { description: 'Page number, from 1, or last' }),
  ),
  page_size: t.Optional(
    t.Integer({
      minimum: 1,
      description: `Results per page (default ${DEFAULT_PAGE_SIZE}; more than ${MAX_PAGE_SIZE} gives ${MAX_PAGE_SIZE})`,
    }),
  ),
}

/**
 * Reads `page` and `page_size` as DRF's PageNumberPagination does: a bad page is 404 "Invalid page.",
 * a bad or non-positive page_size falls back to the default, a large one is clamped.
 */
export function readPage(query: Record<string, string | undefined>): Page {
  const rawSize = query.page_size
  const parsedSize = rawSize !== undefined && /^\d+$/.test(rawSize.trim()) ? Number(rawSize) : 0
  const size = parsedSize > 0 ? Math.min(parsedSize, MAX_PAGE_SIZE) : DEFAULT_PAGE_SIZE
  const rawPage = query.page
  let number = 1
  if (rawPage !== undefined && rawPage !== '' && rawPage !== 'last') {
    if (!/^\d+$/.test(rawPage.trim()) || Number(rawPage) < 1) throw invalidPage()
    number = Number(rawPage)
  }
  return { number, size, offset: (number - 1) * size }
}

/** The page that `readPage` asked for, checked against the total; `last` resolves here. */
export function settlePage(query: Record<string, string | undefined>, page: Page, count: number): Page {
  const lastPage = Math.max(1, Math.ceil(count / page.size))
  const number = query.page === 'last' ? lastPage : page.number
  if (number > lastPage) throw invalidPage()
  return { ...page, number, offset: (number - 1) * page.size }
}

/** `next`/`previous` keep every other query parameter; page 1 is the URL without `page`, as in DRF. */
function pageLink(requestUrl: URL, urls: Urls, number: number): string {
  const params = new URLSearchParams(requestUrl.search)
  if (number === 1) params.delete('page')
  else params.set('page', String(number))
  const search = params.toString()
  return `${urls.origin}${requestUrl.pathname}${search ? `?${search}` : ''}`
}

/** Runs a paginated list: count, settle the page, fetch it, serialize it, wrap it in the envelope. */
export async function paginate<Row, Out>(
  request: Request,
  query: Record<string, string | undefined>,
  urls: Urls,
  source: ListSource<Row>,
  serialize: (row: Row) => Out,
): Promise<Envelope<Out>> {
  const asked = readPage(query)
  const count = await source.count()
  const page = settlePage(query, asked, count)
  const rows = await source.rows(page.size, page.offset)
  const requestUrl = new URL(request.url)
  const hasNext = page.offset + rows.length < count
  return {
    count,
    next: hasNext ? pageLink(requestUrl, urls, page.number + 1) : null,
    previous: page.number > 1 ? pageLink(requestUrl, urls, page.number - 1) : null,
    results: rows.map(serialize),
  }
}
