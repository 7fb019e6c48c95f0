import { organizationToday } from '../organization/queries.ts'
import { Elysia, t } from 'elysia'
import { documentPdf, PDF_CONTENT_TYPE, recordDocument } from './rules.ts'
import type { Deps } from '../../deps.ts'
import { authenticated } from '../../http/auth.ts'
import { isFormBody, UnreadableBody } from '../../http/body.ts'
import { collectionRoutes } from '../../http/crud.ts'
import { docs, named, paragraphs } from '../../http/docs.ts'
import { notFound } from '../../http/errors.ts'
import { defineFilters } from '../../http/filters.ts'
import { RecordId } from '../../http/record-id.ts'
import { requires, whoMay } from '../../http/permissions.ts'
import { checkBody } from '../../http/validation.ts'
import { customerExists } from '../customers/queries.ts'
import { customerParent } from '../customer-records/collection.ts'
import { getDocument, listDocuments } from './queries.ts'
import { DocumentCreate, DocumentOut, DocumentUpload } from './schema.ts'
import { serializeDocument } from './serializer.ts'

const PATH = '/api/customers/:customer_id/documents'
const TAG = 'Customer documents'

/** The paths whose POST may be multipart/form-data (app.ts hands this to the body parser). */
export const DOCUMENT_UPLOAD_PATHS = [/^\/api\/customers\/[^/]+\/documents\/$/]

/**
 * The request body split into the checked fields and the `pdf` file part. A form cannot send null,
 * so an empty `expiration_date` form value means "never expires", as DRF reads a nullable field.
 */
function uploadBody(raw: unknown) {
  if (raw instanceof UnreadableBody) throw raw.error
  const { pdf, ...fields } = (raw ?? {}) as Record<string, unknown>
  if (isFormBody(raw) && fields.expiration_date === '') fields.expiration_date = null
  return { body: checkBody(DocumentCreate, fields), pdf }
}

/** The create body in both encodings a DRF client may send. */
const createDocs = docs({
  tag: TAG,
  summary: 'Record a signed document (a waiver by default), optionally with its PDF',
  description: whoMay(
    'can_manage_members',
    paragraphs(
      [
        'JSON records the document alone (`pdf` reads `null`); `multipart/form-data` attaches the',
        'signed PDF as the file part `pdf`, at most 10 MiB, where an empty form `expiration_date` means',
        'it never expires. The file must read as a PDF throughout: its `%PDF-1.x` header first, `%%EOF`',
        'in its last KiB, and no HTML, SVG or script tag anywhere, else `Upload a valid PDF. The file',
        'you uploaded was either not a PDF or a corrupted PDF.`; an empty file is `The submitted file is',
        'empty.` and a `pdf` that is not a file part `The submitted data was not a file. Check the',
        'encoding type on the form.`, all on `pdf`. A larger upload is 413.',
      ],
      [
        'The record and its file are written together or not at all, inside the database, so the',
        'database file is the whole backup. Documents are signed records: there is no PUT, PATCH or',
        'DELETE (405).',
      ],
    ),
  ),
  body: named('CustomerDocumentCreate', DocumentCreate),
  bodyAlso: { 'multipart/form-data': named('CustomerDocumentUpload', DocumentUpload) },
  ok: { status: 201, schema: named('CustomerDocument', DocumentOut) },
  errors: [404],
  params: { customer_id: "The customer's id" },
})

const pdfDocs = docs({
  tag: TAG,
  summary: "Download a customer document's PDF",
  description: whoMay(
    'staff',
    [
      'Answers the file as `application/pdf`, as an attachment (saved rather than shown: it would',
      "open in the API's origin). 404 when the document has no PDF.",
    ].join(' '),
  ),
  ok: { status: 200, schema: null },
  errors: [404],
  params: { customer_id: "The customer's id", id: "The customer document's id" },
})

/**
 * /api/customers/<customer_id>/documents/: list and read, create (JSON, or
 * multipart/form-data with the PDF as the `pdf` part), and the PDF itself at `<id>/pdf/`.
 * Documents are signed records: no PUT, PATCH or DELETE (405).
 */
export const customerDocumentRoutes = (deps: Deps) =>
  new Elysia()
    .use(
      collectionRoutes(deps, {
        path: PATH,
        parent: customerParent,
        tag: TAG,
        noun: 'customer document',
        read: 'staff',
        write: 'can_manage_members',
        descriptions: {
          list: "The customer's documents, oldest first (by id).",
        },
        filters: defineFilters({}),
        output: DocumentOut,
        list: async ({ deps, parentId }) => listDocuments(deps.db, parentId, await organizationToday(deps)),
        get: async ({ deps, parentId }, id) =>
          getDocument(deps.db, parentId, id, await organizationToday(deps)),
        serialize: serializeDocument,
      }),
    )
    .use(
      new Elysia({ prefix: PATH })
        .use(authenticated(deps))
        .post(
          '/',
          async ({ params, body: raw, urls, set }) => {
            const customerId = params.customer_id
            if (!(await customerExists(deps.db, customerId))) throw notFound()
            const { body, pdf } = uploadBody(raw)
            const id = await recordDocument(deps, customerId, body, pdf)
            set.status = 201
            return serializeDocument(
              (await getDocument(deps.db, customerId, id, await organizationToday(deps)))!,
              urls,
            )
          },
          {
            params: t.Object({ customer_id: RecordId() }),
            ...requires('can_manage_members'),
            ...createDocs,
          },
        )
        .get(
          '/:id/pdf/',
          async ({ params }) => {
            const file = await documentPdf(deps, params.customer_id, params.id)
            return new Response(file.content, {
              headers: {
                'content-type': file.content_type,
                // Saved rather than shown: the file is the customer's, and would open in the API's origin.
                'content-disposition': `attachment; filename="document-${params.id}.pdf"`,
              },
            })
          },
          {
            params: t.Object({ customer_id: RecordId(), id: RecordId() }),
            ...requires('staff'),
            detail: {
              ...pdfDocs.detail,
              responses: {
                ...pdfDocs.detail.responses,
                200: {
                  description: 'The PDF, as an attachment (Content-Disposition: attachment)',
                  content: { [PDF_CONTENT_TYPE]: { schema: { type: 'string', format: 'binary' } } },
                },
              },
            },
          },
        ),
    )
