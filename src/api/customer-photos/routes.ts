import { Elysia, t } from 'elysia'
import type { Deps } from '../../deps.ts'
import { authenticated } from '../../http/auth.ts'
import { UnreadableBody } from '../../http/body.ts'
import { docs, named, paragraphs } from '../../http/docs.ts'
import { notFound } from '../../http/errors.ts'
import { RecordId } from '../../http/record-id.ts'
import { requires, whoMay } from '../../http/permissions.ts'
import type { Urls } from '../../http/urls.ts'
import { customerExists } from '../customers/queries.ts'
import { deletePhoto, getPhoto, photoPath, replacePhoto } from './queries.ts'
import { MAX_PHOTO_BYTES, photoMessages, readPhoto } from './rules.ts'

const PATH = '/api/customers/:customer_id/photo/'
const TAG = 'Customer photos'

/** The path whose PUT is multipart/form-data (app.ts hands this to the body parser). */
export const PHOTO_UPLOAD_PATHS = [/^\/api\/customers\/[^/]+\/photo\/$/]

const params = t.Object({ customer_id: RecordId() })
const paramDocs = { customer_id: "The customer's id" }

const PhotoUpload = t.Object({
  photo: t.String({
    format: 'binary',
    description: `A JPEG, PNG or WebP image, at most ${MAX_PHOTO_BYTES / 1024 / 1024} MiB`,
  }),
})

const PhotoOut = t.Object({
  profile_image_url: t.String({ format: 'uri', description: 'Where the box serves the photo (staff only)' }),
  content_type: t.String({ description: 'image/jpeg, image/png or image/webp, as the file reads' }),
  taken_at: t.String({ format: 'date-time' }),
})

const serializePhoto = (
  customerId: number,
  photo: { content_type: string; taken_at: string },
  urls: Urls,
) => ({
  profile_image_url: urls.abs(photoPath(customerId)),
  content_type: photo.content_type,
  taken_at: photo.taken_at,
})

const putDocs = docs({
  tag: TAG,
  summary: "Keep a customer's photo",
  description: whoMay(
    'can_manage_members',
    paragraphs(
      [
        '`multipart/form-data` with the image as the file part `photo`: JPEG, PNG or WebP, told by the',
        `file's own bytes, at most ${MAX_PHOTO_BYTES / 1024 / 1024} MiB. It replaces the customer's last`,
        "photo, and the customer's `profile_image_url` then points at it (the member look-up by barcode",
        `shows it too). Refusals, all on \`photo\`: none sent \`${photoMessages.missing}\`, a value that is`,
        `no file \`${photoMessages.notAFile}\`, an empty file \`${photoMessages.empty}\`, a larger one`,
        `\`${photoMessages.tooLarge}\`, anything else \`${photoMessages.notAnImage}\``,
      ],
      [
        'The photo is kept inside the database, so the database file is still the whole backup, and',
        'is served only to signed-in staff.',
      ],
    ),
  ),
  body: named('CustomerPhotoUpload', PhotoUpload),
  bodyMediaType: 'multipart/form-data',
  ok: { status: 200, schema: named('CustomerPhoto', PhotoOut) },
  errors: [404, 413],
  params: paramDocs,
})

const getDocs = docs({
  tag: TAG,
  summary: "A customer's photo",
  description: whoMay(
    'staff',
    [
      'The image itself, in the type it was kept as. 404 when the customer has no photo. It is',
      'marked private (no shared cache keeps it) and carries an ETag, so a desk showing the same',
      'customer again gets 304 with `If-None-Match`.',
    ].join(' '),
  ),
  ok: { status: 200, schema: null },
  errors: [404],
  params: paramDocs,
})

const deleteDocs = docs({
  tag: TAG,
  summary: "Forget a customer's photo",
  description: whoMay(
    'can_manage_members',
    [
      "204 with no body. The customer's `profile_image_url` is emptied when it pointed at the photo;",
      'a link to a picture elsewhere stays. 404 when there was no photo.',
    ].join(' '),
  ),
  ok: { status: 204, schema: null },
  errors: [404],
  params: paramDocs,
})

/** A photo's version: it changes whenever a new one is kept. */
const etagOf = (photo: { taken_at: string }) => `"${Bun.hash(photo.taken_at).toString(36)}"`

/**
 * /api/customers/<customer_id>/photo/: the customer's photo, taken with the desk's camera and kept
 * inside the database. PUT keeps a new one (replacing the last), GET serves it to staff, DELETE
 * forgets it.
 */
export const customerPhotoRoutes = (deps: Deps) =>
  new Elysia()
    .use(authenticated(deps))
    .put(
      PATH,
      async ({ params, body, urls }) => {
        if (!(await customerExists(deps.db, params.customer_id))) throw notFound()
        if (body instanceof UnreadableBody) throw body.error
        const photo = { ...(await readPhoto(body)), taken_at: deps.clock.now().toISOString() }
        await replacePhoto(deps.db, params.customer_id, photo)
        return serializePhoto(params.customer_id, photo, urls)
      },
      { params, ...requires('can_manage_members'), ...putDocs },
    )
    .get(
      PATH,
      async ({ params, request }) => {
        const photo = await getPhoto(deps.db, params.customer_id)
        if (photo === undefined) throw notFound()
        const headers = {
          etag: etagOf(photo),
          'cache-control': 'private, no-cache',
        }
        if (request.headers.get('if-none-match') === headers.etag)
          return new Response(null, { status: 304, headers })
        return new Response(photo.content, { headers: { ...headers, 'content-type': photo.content_type } })
      },
      {
        params,
        ...requires('staff'),
        detail: {
          ...getDocs.detail,
          responses: {
            ...getDocs.detail.responses,
            304: { description: 'Not modified: the photo is still the one `If-None-Match` names' },
            200: {
              description: 'The image',
              content: Object.fromEntries(
                ['image/jpeg', 'image/png', 'image/webp'].map((type) => [
                  type,
                  { schema: { type: 'string', format: 'binary' } },
                ]),
              ),
            },
          },
        },
      },
    )
    .delete(
      PATH,
      async ({ params, set }) => {
        if (!(await deletePhoto(deps.db, params.customer_id, deps.clock.now().toISOString())))
          throw notFound()
        set.status = 204
      },
      { params, ...requires('can_manage_members'), ...deleteDocs },
    )
