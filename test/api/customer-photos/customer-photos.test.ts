import { describe, expect, test } from 'bun:test'
import { ONE_MINUTE_LATER, ORIGIN, START } from '../../helpers/app.ts'
import { forbidden, notFound } from '../../helpers/bodies.ts'
import { useCustomerRecordFixture } from '../../helpers/customer-record-checks.ts'
import { countRows } from '../../helpers/factories.ts'
import { useSeededApp } from '../../helpers/seeded.ts'

const t = useSeededApp()
const f = useCustomerRecordFixture(t)

const MiB = 1024 * 1024
const JPEG = new Uint8Array([
  0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0xff, 0xd9,
])
const PNG = new Uint8Array([
  0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52,
])
const WEBP = new Uint8Array(
  [...'RIFF']
    .map((c) => c.charCodeAt(0))
    .concat(
      [36, 0, 0, 0],
      [...'WEBPVP8 '].map((c) => c.charCodeAt(0)),
    ),
)

const photoPath = (id = f.customer.id) => `/api/customers/${id}/photo/`
const photoUrl = (id = f.customer.id) => `${ORIGIN}${photoPath(id)}`
const photoCount = () => countRows(t.db, 'customer_photos')

/** PUT a multipart/form-data body, as the desk's camera sends its still. */
async function put(fields: Record<string, string | Blob>, opts: { token?: string; id?: number } = {}) {
  const form = new FormData()
  for (const [name, value] of Object.entries(fields)) form.append(name, value)
  const token = opts.token ?? f.membersToken
  const response = await t.app.handle(
    new Request(`${ORIGIN}${photoPath(opts.id)}`, {
      method: 'PUT',
      headers: { authorization: `Token ${token}` },
      body: form,
    }),
  )
  return { status: response.status, body: (await response.json()) as unknown }
}

async function download(opts: { token?: string; id?: number; etag?: string } = {}) {
  const headers: Record<string, string> = { authorization: `Token ${opts.token ?? f.othersToken}` }
  if (opts.etag) headers['if-none-match'] = opts.etag
  const response = await t.app.handle(new Request(`${ORIGIN}${photoPath(opts.id)}`, { headers }))
  return {
    status: response.status,
    headers: response.headers,
    bytes: new Uint8Array(await response.arrayBuffer()),
  }
}

const image = (bytes: Uint8Array, name = 'desk.jpg', type = 'image/jpeg') => new File([bytes], name, { type })

describe('/api/customers/<id>/photo/', () => {
  test('PUT keeps the photo; the customer links it; GET serves it to any staff user', async () => {
    const res = await put({ photo: image(JPEG) })
    expect(res).toEqual({
      status: 200,
      body: { profile_image_url: photoUrl(), content_type: 'image/jpeg', taken_at: START },
    })
    const customer = await t.request('GET', `/api/customers/${f.customer.id}/`, { token: f.othersToken })
    expect((customer.body as { profile_image_url: string }).profile_image_url).toBe(photoUrl())
    expect((customer.body as { updated_at: string }).updated_at).toBe(START)
    const served = await download()
    expect(served.status).toBe(200)
    expect(served.headers.get('content-type')).toBe('image/jpeg')
    expect(served.headers.get('cache-control')).toBe('private, no-cache')
    expect(served.bytes).toEqual(JPEG)
  })

  test('the type is told by the bytes, not by the name or type the client claims', async () => {
    expect((await put({ photo: image(PNG, 'photo.jpg', 'image/jpeg') })).body).toMatchObject({
      content_type: 'image/png',
    })
    expect((await download()).headers.get('content-type')).toBe('image/png')
    expect((await put({ photo: image(WEBP, 'x.bin', 'application/octet-stream') })).body).toMatchObject({
      content_type: 'image/webp',
    })
  })

  test('a new photo replaces the last; its ETag changes, and an unchanged one answers 304', async () => {
    await put({ photo: image(JPEG) })
    const first = await download()
    const etag = first.headers.get('etag')!
    expect(etag).toMatch(/^"[0-9a-z]+"$/)
    const again = await download({ etag })
    expect(again.status).toBe(304)
    expect(again.bytes.length).toBe(0)
    t.clock.set(ONE_MINUTE_LATER)
    await put({ photo: image(PNG) })
    expect(await photoCount()).toBe(1)
    const second = await download({ etag })
    expect(second.status).toBe(200)
    expect(second.bytes).toEqual(PNG)
    expect(second.headers.get('etag')).not.toBe(etag)
  })

  const refusals: Array<[string, Record<string, string | Blob>, string]> = [
    ['no photo part', {}, 'No file was submitted.'],
    [
      'a photo sent as text',
      { photo: 'data:image/jpeg;base64,/9j/' },
      'The submitted data was not a file. Check the encoding type on the form.',
    ],
    ['an empty file', { photo: image(new Uint8Array()) }, 'The submitted file is empty.'],
    [
      'an SVG, which can run script',
      { photo: image(new TextEncoder().encode('<svg onload=alert(1)>'), 'a.svg', 'image/svg+xml') },
      'Upload a valid image. The file you uploaded was either not an image or a corrupted image.',
    ],
    [
      'a PDF named .jpg',
      { photo: image(new TextEncoder().encode('%PDF-1.4\n%%EOF\n')) },
      'Upload a valid image. The file you uploaded was either not an image or a corrupted image.',
    ],
    [
      'a JPEG over 5 MiB',
      { photo: image(new Uint8Array([...JPEG.slice(0, 3), ...new Uint8Array(5 * MiB)])) },
      'The photo may be at most 5 MiB.',
    ],
  ]
  for (const [name, fields, message] of refusals)
    test(`${name}: 400 on photo, and nothing kept`, async () => {
      const res = await put(fields)
      expect(res).toEqual({ status: 400, body: { photo: [message] } })
      expect(await photoCount()).toBe(0)
      const customer = await t.request('GET', `/api/customers/${f.customer.id}/`, { token: f.othersToken })
      expect((customer.body as { profile_image_url: string }).profile_image_url).toBe('')
    })

  test('a JSON body is refused on photo: a photo is a file part', async () => {
    const res = await t.request('PUT', photoPath(), { token: f.membersToken, body: { photo: 'x' } })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({
      photo: ['The submitted data was not a file. Check the encoding type on the form.'],
    })
  })

  test('keeping and forgetting need can_manage_members; seeing needs only a staff login', async () => {
    expect(await put({ photo: image(JPEG) }, { token: f.othersToken })).toEqual({
      status: 403,
      body: forbidden,
    })
    expect(await photoCount()).toBe(0)
    await put({ photo: image(JPEG) })
    expect((await download({ token: f.othersToken })).status).toBe(200)
    const refused = await t.request('DELETE', photoPath(), { token: f.othersToken })
    expect(refused).toMatchObject({ status: 403, body: forbidden })
    const anonymous = await t.app.handle(new Request(`${ORIGIN}${photoPath()}`))
    expect(anonymous.status).toBe(401)
  })

  test('an unknown customer, or one without a photo, is 404', async () => {
    expect(await put({ photo: image(JPEG) }, { id: 999999 })).toEqual({ status: 404, body: notFound })
    expect((await download()).status).toBe(404)
    expect(await t.request('DELETE', photoPath(), { token: f.membersToken })).toMatchObject({
      status: 404,
      body: notFound,
    })
  })

  test("DELETE forgets the photo and empties the link; a client's own link is left alone", async () => {
    await put({ photo: image(JPEG) })
    expect((await t.request('DELETE', photoPath(), { token: f.membersToken })).status).toBe(204)
    expect(await photoCount()).toBe(0)
    const customer = await t.request('GET', `/api/customers/${f.customer.id}/`, { token: f.othersToken })
    expect((customer.body as { profile_image_url: string }).profile_image_url).toBe('')

    await put({ photo: image(JPEG) })
    await t.request('PATCH', `/api/customers/${f.customer.id}/`, {
      token: f.membersToken,
      body: { profile_image_url: 'https://photos.example/ashima.jpg' },
    })
    expect((await t.request('DELETE', photoPath(), { token: f.membersToken })).status).toBe(204)
    const kept = await t.request('GET', `/api/customers/${f.customer.id}/`, { token: f.othersToken })
    expect((kept.body as { profile_image_url: string }).profile_image_url).toBe(
      'https://photos.example/ashima.jpg',
    )
  })
})
