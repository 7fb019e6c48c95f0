import { describe, expect, test } from 'bun:test'
import { ONE_MINUTE_LATER, ORIGIN, START } from '../../helpers/app.ts'
import {
  blank,
  emptyPage,
  forbidden,
  invalidChoice,
  invalidDate,
  notFound,
  notNull,
  onePage,
  required,
} from '../../helpers/bodies.ts'
import { makeDocument } from '../../helpers/customer-factories.ts'
import { useCustomerRecordFixture } from '../../helpers/customer-record-checks.ts'
import { countRows } from '../../helpers/factories.ts'
import {
  expectEachNotAllowed,
  expectEachNotFound,
  expectUnauthenticated,
  type RefusedPost,
  testEachNeedsTokenApart,
  testEachRefusedPost,
  useSeededApp,
} from '../../helpers/seeded.ts'

const t = useSeededApp()
/** The customer whose documents are tested, another customer, and members/others tokens. */
const f = useCustomerRecordFixture(t)

const MiB = 1024 * 1024
const notAFile = ['The submitted data was not a file. Check the encoding type on the form.']
const emptyFile = ['The submitted file is empty.']
const notAPdf = ['Upload a valid PDF. The file you uploaded was either not a PDF or a corrupted PDF.']
const tooLarge = { detail: 'Request body is too large.' }

const bytes = (...parts: Array<string | Iterable<number>>) =>
  new Uint8Array(parts.flatMap((p) => (typeof p === 'string' ? [...new TextEncoder().encode(p)] : [...p])))

/** A tiny but valid one-page PDF, with the customary binary comment line (bytes above 0x7F). */
const PDF = bytes(
  '%PDF-1.4\n%',
  [0xe2, 0xe3, 0xcf, 0xd3],
  '\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n',
  '2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n',
  '3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 72 72]>>endobj\n',
  'trailer<</Root 1 0 R>>\n%%EOF\n',
)

const pdfFile = (content: Uint8Array = PDF, name = 'waiver.pdf') =>
  new File([content], name, { type: 'application/pdf' })

const documentsPath = (id = f.customer.id) => `/api/customers/${id}/documents/`
const documentPath = (documentId: number, id = f.customer.id) =>
  `/api/customers/${id}/documents/${documentId}/`
const pdfPath = (documentId: number, id = f.customer.id) => `${documentPath(documentId, id)}pdf/`
const documentCount = () => countRows(t.db, 'customer_documents')
const fileCount = () => countRows(t.db, 'customer_document_files')

/** POST a multipart/form-data body built with FormData, as a DRF client uploads a file. */
async function upload(fields: Record<string, string | Blob>, opts: { token?: string; path?: string } = {}) {
  const form = new FormData()
  for (const [name, value] of Object.entries(fields)) form.append(name, value)
  const headers: Record<string, string> = opts.token ? { authorization: `Token ${opts.token}` } : {}
  const response = await t.app.handle(
    new Request(`${ORIGIN}${opts.path ?? documentsPath()}`, { method: 'POST', headers, body: form }),
  )
  return { status: response.status, headers: response.headers, body: (await response.json()) as any }
}

/** GET raw bytes (the PDF download). */
async function download(path: string, token?: string) {
  const headers: Record<string, string> = token ? { authorization: `Token ${token}` } : {}
  const response = await t.app.handle(new Request(`${ORIGIN}${path}`, { headers }))
  return {
    status: response.status,
    headers: response.headers,
    bytes: new Uint8Array(await response.arrayBuffer()),
  }
}

/** The whole record the API answers for a document with the factory's defaults. */
function documentBody(id: number, fields: Record<string, unknown> = {}) {
  const owner = (fields.customer_id as number | undefined) ?? f.customer.id
  const { customer_id: _, ...rest } = fields
  return {
    id,
    url: `${ORIGIN}/api/customers/${owner}/documents/${id}/`,
    name: 'Liability waiver',
    kind: 'waiver',
    pdf: null,
    expiration_date: null,
    is_expired: false,
    created_at: START,
    updated_at: START,
    ...rest,
  }
}
const pdfUrl = (id: number, owner = f.customer.id) => `${ORIGIN}/api/customers/${owner}/documents/${id}/pdf/`

describe('/api/customers/<id>/documents/ 401', () => {
  const routes: Array<[string, string]> = [
    ['GET', '/api/customers/1/documents/'],
    ['GET', '/api/customers/1/documents/1/'],
    ['GET', '/api/customers/1/documents/1/pdf/'],
    ['POST', '/api/customers/1/documents/'],
    ['PUT', '/api/customers/1/documents/1/'],
    ['PATCH', '/api/customers/1/documents/1/'],
    ['DELETE', '/api/customers/1/documents/1/'],
  ]
  testEachNeedsTokenApart(t, routes, { setUp: () => makeDocument(t.db, f.customer.id, {}, PDF) })

  test('a multipart upload without a token is 401 and stores nothing', async () => {
    const res = await upload({ name: 'Waiver', pdf: pdfFile() })
    expectUnauthenticated(res)
    expect(await documentCount()).toBe(0)
  })
})

describe('/api/customers/<id>/documents/ 400', () => {
  const post = (body: unknown) => t.request('POST', documentsPath(), { token: f.membersToken, body })

  test('POST with an empty body needs name', async () => {
    const res = await post({})
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ name: required })
    expect(await documentCount()).toBe(0)
  })

  const cases: RefusedPost[] = [
    ['a blank name', { name: '' }, { name: blank }],
    ['a null name', { name: null }, { name: notNull }],
    [
      'an expiration_date in the wrong format',
      { expiration_date: '31/12/2027' },
      { expiration_date: invalidDate },
    ],
    [
      'an expiration_date that is no calendar day',
      { expiration_date: '2027-02-29' },
      { expiration_date: invalidDate },
    ],
    ['an unknown kind', { kind: 'contract' }, { kind: invalidChoice('contract') }],
    ['a null kind', { kind: null }, { kind: notNull }],
    ['a pdf sent as text in JSON', { pdf: 'JVBERi0xLjQK' }, { pdf: notAFile }],
  ]
  testEachRefusedPost(cases, { post, count: documentCount, base: () => ({ name: 'Waiver' }) })

  const uploads: Array<[string, Record<string, string | Blob>, Record<string, string[]>]> = [
    ['a file that is not a PDF', { pdf: new File(['hello'], 'waiver.pdf') }, { pdf: notAPdf }],
    ['an image named .pdf', { pdf: new File([bytes([0x89], 'PNG\r\n')], 'w.pdf') }, { pdf: notAPdf }],
    ['a file of fewer bytes than the PDF header', { pdf: new File(['%PDF'], 'w.pdf') }, { pdf: notAPdf }],
    ['a %PDF- header without a version', { pdf: pdfFile(bytes('%PDF-x\n', PDF.slice(9))) }, { pdf: notAPdf }],
    [
      'a PDF header over an HTML page, with the PDF trailer at its end',
      { pdf: pdfFile(bytes('%PDF-1.4\n<html><body><script>alert(1)</script></body></html>\n%%EOF\n')) },
      { pdf: notAPdf },
    ],
    [
      'a real PDF with an HTML page inside it, in any case',
      {
        pdf: pdfFile(bytes(PDF.slice(0, 20), '\n<!DOCTYPE HTML>\n<ScRiPt src=x></script>\n', PDF.slice(20))),
      },
      { pdf: notAPdf },
    ],
    [
      'an SVG inside a PDF',
      { pdf: pdfFile(bytes(PDF.slice(0, 20), '<svg onload=alert(1)>', PDF.slice(20))) },
      { pdf: notAPdf },
    ],
    ['a PDF cut short before its %%EOF', { pdf: pdfFile(PDF.slice(0, PDF.length - 7)) }, { pdf: notAPdf }],
    [
      'a PDF whose %%EOF is followed by more than 1 KiB of something else',
      { pdf: pdfFile(bytes(PDF, 'x'.repeat(1025))) },
      { pdf: notAPdf },
    ],
    ['an empty file', { pdf: new File([], 'waiver.pdf') }, { pdf: emptyFile }],
    ['pdf as a plain form field', { pdf: '%PDF-1.4' }, { pdf: notAFile }],
    ['an unknown kind', { kind: 'contract', pdf: pdfFile() }, { kind: invalidChoice('contract') }],
    ['an expiration_date in the wrong format', { expiration_date: 'soon' }, { expiration_date: invalidDate }],
  ]
  for (const [name, fields, errors] of uploads) {
    test(`a multipart upload with ${name} is 400 and stores nothing`, async () => {
      const res = await upload({ name: 'Waiver', ...fields }, { token: f.membersToken })
      expect(res.status).toBe(400)
      expect(res.body).toEqual(errors)
      expect(await documentCount()).toBe(0)
      expect(await fileCount()).toBe(0)
    })
  }

  test('every failing field at once, the file last', async () => {
    const res = await upload(
      { name: '', kind: 'x', expiration_date: 'never', pdf: new File(['GIF89a'], 'w.pdf') },
      { token: f.membersToken },
    )
    expect(res.status).toBe(400)
    expect(res.body).toEqual({
      name: blank,
      expiration_date: invalidDate,
      kind: invalidChoice('x'),
      pdf: notAPdf,
    })
  })

  test('a malformed multipart body is 400 with a parse error', async () => {
    const res = await t.request('POST', documentsPath(), {
      token: f.membersToken,
      headers: { 'content-type': 'multipart/form-data; boundary=XYZ' },
      body: 'this is not multipart',
    })
    expect(res.status).toBe(400)
    // The reason after the dash is the runtime's multipart parser's own words.
    expect(Object.keys(res.body)).toEqual(['detail'])
    expect(res.body.detail).toStartWith('Multipart form parse error - ')
    expect(await documentCount()).toBe(0)
  })
})

describe('/api/customers/<id>/documents/ 403', () => {
  for (const [who, token] of [
    ['a user without permissions', () => t.seed.staffToken],
    ['a user with every permission but can_manage_members', () => f.othersToken],
  ] as const) {
    test(`${who} may read and download but not create`, async () => {
      const document = await makeDocument(t.db, f.customer.id, {}, PDF)
      expect((await t.request('GET', documentsPath(), { token: token() })).status).toBe(200)
      expect((await t.request('GET', documentPath(document.id), { token: token() })).status).toBe(200)
      expect((await download(pdfPath(document.id), token())).status).toBe(200)
      const json = await t.request('POST', documentsPath(), { token: token(), body: { name: '' } })
      expect(json.status).toBe(403)
      expect(json.body).toEqual(forbidden)
      const multipart = await upload({ name: 'Waiver', pdf: pdfFile() }, { token: token() })
      expect(multipart.status).toBe(403)
      expect(multipart.body).toEqual(forbidden)
      expect(await documentCount()).toBe(1)
    })
  }
})

describe('/api/customers/<id>/documents/ 404, 405 and 413', () => {
  test('an unknown customer is 404 for the list, create, a record and its PDF', async () => {
    const document = await makeDocument(t.db, f.customer.id, {}, PDF)
    await expectEachNotFound(t, f.membersToken, [
      ['GET', documentsPath(999)],
      ['POST', documentsPath(999), { name: 'Waiver' }],
      ['GET', documentPath(document.id, 999)],
      ['GET', pdfPath(document.id, 999)],
    ])
    const uploaded = await upload(
      { name: 'Waiver', pdf: pdfFile() },
      { token: f.membersToken, path: documentsPath(999) },
    )
    expect(uploaded.status).toBe(404)
    expect(uploaded.body).toEqual(notFound)
    expect(await documentCount()).toBe(1)
  })

  test("another customer's document and its PDF are 404", async () => {
    const theirs = await makeDocument(t.db, f.other.id, {}, PDF)
    await expectEachNotFound(t, f.membersToken, [
      ['GET', documentPath(theirs.id)],
      ['GET', pdfPath(theirs.id)],
    ])
  })

  test('the PDF of a document without a file, or of an unknown document, is 404', async () => {
    const document = await makeDocument(t.db, f.customer.id)
    const paths = [pdfPath(document.id), pdfPath(999), documentPath(999)]
    await expectEachNotFound(
      t,
      f.membersToken,
      paths.map((path) => ['GET', path] as const),
    )
  })

  for (const method of ['PUT', 'PATCH', 'DELETE']) {
    test(`${method} on a document is 405: signed documents are not edited`, async () => {
      const document = await makeDocument(t.db, f.customer.id)
      const body = method === 'DELETE' ? undefined : { name: 'Changed' }
      await expectEachNotAllowed(t, t.seed.adminToken, [[method, documentPath(document.id), body]])
      expect(await t.db.selectFrom('customer_documents').selectAll().execute()).toEqual([document])
    })
  }

  test('an upload whose file is over 10 MiB is 413 and stores nothing', async () => {
    const big = new Uint8Array(10 * MiB + 1)
    big.set(PDF)
    const res = await upload({ name: 'Waiver', pdf: pdfFile(big) }, { token: f.membersToken })
    expect(res.status).toBe(413)
    expect(res.body).toEqual(tooLarge)
    expect(await documentCount()).toBe(0)
  })

  test('an upload declaring a body over the multipart limit is 413 before it is read', async () => {
    const res = await t.request('POST', documentsPath(), {
      token: f.membersToken,
      headers: { 'content-type': 'multipart/form-data; boundary=XYZ', 'content-length': String(12 * MiB) },
      body: '--XYZ--\r\n',
    })
    expect(res.status).toBe(413)
    expect(res.body).toEqual(tooLarge)
  })

  test('a JSON body on the documents path keeps the 1 MiB limit', async () => {
    const res = await t.request('POST', documentsPath(), {
      token: f.membersToken,
      body: { name: 'x'.repeat(MiB) },
    })
    expect(res.status).toBe(413)
    expect(res.body).toEqual(tooLarge)
    expect(await documentCount()).toBe(0)
  })
})

describe('/api/customers/<id>/documents/ success', () => {
  test('POST JSON with the name only records a non-expiring waiver without a PDF', async () => {
    t.clock.advance(60_000)
    const res = await t.request('POST', documentsPath(), {
      token: f.membersToken,
      body: { name: 'Liability waiver' },
    })
    expect(res.status).toBe(201)
    expect(res.body).toEqual(
      documentBody(res.body.id, { created_at: ONE_MINUTE_LATER, updated_at: ONE_MINUTE_LATER }),
    )
    expect((await t.request('GET', documentPath(res.body.id), { token: t.seed.staffToken })).body).toEqual(
      res.body,
    )
    expect(await fileCount()).toBe(0)
  })

  test('POST JSON with every field (admin passes too); read-only fields are ignored', async () => {
    const res = await t.request('POST', documentsPath(), {
      token: t.seed.adminToken,
      body: {
        name: 'Photo release',
        kind: 'other',
        expiration_date: '2027-12-31',
        id: 77,
        is_expired: true,
        pdf: null,
        created_at: '2000-01-01T00:00:00.000Z',
      },
    })
    expect(res.status).toBe(201)
    expect(res.body).toEqual(
      documentBody(1, { name: 'Photo release', kind: 'other', expiration_date: '2027-12-31' }),
    )
  })

  test('a multipart upload stores the PDF, served back byte for byte at the pdf link', async () => {
    const res = await upload(
      { name: 'Liability waiver', expiration_date: '2027-11-22', pdf: pdfFile() },
      { token: f.membersToken },
    )
    expect(res.status).toBe(201)
    const id = res.body.id
    expect(res.body).toEqual(documentBody(id, { expiration_date: '2027-11-22', pdf: pdfUrl(id) }))

    const file = await download(pdfPath(id), t.seed.staffToken)
    expect(file.status).toBe(200)
    expect(file.headers.get('content-type')).toBe('application/pdf')
    // Saved, never shown in the API's own origin: the file is the customer's, not the API's.
    expect(file.headers.get('content-disposition')).toBe(`attachment; filename="document-${id}.pdf"`)
    expect(file.bytes).toEqual(PDF)
    // The link in the record is the download.
    expect(new URL(res.body.pdf).pathname).toBe(pdfPath(id))
  })

  test('a PDF whose %%EOF is followed by a little padding, as scanners add, is accepted', async () => {
    const padded = bytes(PDF, '\0'.repeat(1000))
    const res = await upload({ name: 'Scanned waiver', pdf: pdfFile(padded) }, { token: f.membersToken })
    expect(res.status).toBe(201)
    expect((await download(pdfPath(res.body.id), f.membersToken)).bytes).toEqual(padded)
  })

  test('a multipart upload of exactly 10 MiB is accepted', async () => {
    // A PDF's objects with its trailer at the end, as a large scan is laid out.
    const big = new Uint8Array(10 * MiB)
    big.set(PDF)
    big.set(bytes('\n%%EOF\n'), big.length - 7)
    const res = await upload({ name: 'Scanned waiver', pdf: pdfFile(big) }, { token: f.membersToken })
    expect(res.status).toBe(201)
    const file = await download(pdfPath(res.body.id), f.membersToken)
    expect(file.bytes.length).toBe(10 * MiB)
    expect(file.bytes).toEqual(big)
  })

  test('a multipart upload without a file, and an empty expiration_date, records a non-expiring document', async () => {
    const res = await upload(
      { name: 'Liability waiver', expiration_date: '', kind: 'waiver' },
      { token: f.membersToken },
    )
    expect(res.status).toBe(201)
    expect(res.body).toEqual(documentBody(res.body.id))
    expect(await fileCount()).toBe(0)
  })

  test('a waiver recorded here shows on the customer', async () => {
    await upload(
      { name: 'Liability waiver', expiration_date: '2027-01-31', pdf: pdfFile() },
      { token: f.membersToken },
    )
    const customer = await t.request('GET', `/api/customers/${f.customer.id}/`, { token: f.membersToken })
    expect(customer.body.active_waiver_exists).toBe(true)
    expect(customer.body.latest_waiver_expiration_date).toBe('2027-01-31')
  })

  test("the list holds this customer's documents only, oldest first, with is_expired and the pdf link", async () => {
    const expired = await makeDocument(t.db, f.customer.id, {
      name: 'Old waiver',
      expiration_date: '2026-11-21',
    })
    await makeDocument(t.db, f.other.id, { name: 'Theirs' })
    const today = await makeDocument(
      t.db,
      f.customer.id,
      { name: 'Current waiver', expiration_date: '2026-11-22' },
      PDF,
    )
    const other = await makeDocument(t.db, f.customer.id, { name: 'Photo release', kind: 'other' })
    const res = await t.request('GET', documentsPath(), { token: t.seed.staffToken })
    expect(res.status).toBe(200)
    expect(res.body).toEqual(
      onePage([
        documentBody(expired.id, { name: 'Old waiver', expiration_date: '2026-11-21', is_expired: true }),
        documentBody(today.id, {
          name: 'Current waiver',
          expiration_date: '2026-11-22',
          pdf: pdfUrl(today.id),
        }),
        documentBody(other.id, { name: 'Photo release', kind: 'other' }),
      ]),
    )
  })

  test('is_expired turns at midnight in the organization zone, not UTC', async () => {
    const document = await makeDocument(t.db, f.customer.id, { expiration_date: '2026-11-22' })
    const expired = async () =>
      (await t.request('GET', documentPath(document.id), { token: t.seed.staffToken })).body.is_expired
    t.clock.set('2026-11-23T06:59:59.999Z') // 23:59:59.999 on the 22nd in Denver
    expect(await expired()).toBe(false)
    t.clock.set('2026-11-23T07:00:00.000Z') // midnight in Denver
    expect(await expired()).toBe(true)
  })

  test('a customer without documents has an empty list', async () => {
    const res = await t.request('GET', documentsPath(), { token: t.seed.staffToken })
    expect(res.body).toEqual(emptyPage)
  })
})
