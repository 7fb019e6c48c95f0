import { type Collection, cents, each, flag, ids, ownPath, put, stamps } from './writing.ts'

/** Customers and every record under them. */
export const CUSTOMERS: Collection[] = [
  {
    name: 'customers',
    path: '/api/customers/',
    // A customer's photo is the box's own file behind profile_image_url: fetched with the page.
    prepare: async (records, { source }) => {
      const photos = new Map<number, { contentType: string; bytes: Uint8Array }>()
      for (const r of records) {
        const path = ownPath(r.profile_image_url ?? '', source)
        if (path !== `/api/customers/${r.id}/photo/`) continue
        const photo = await source.file(path)
        if (photo) photos.set(r.id, photo)
      }
      return photos
    },
    write: each(
      async (
        trx,
        r,
        _parent,
        { source },
        photos: Map<number, { contentType: string; bytes: Uint8Array }>,
      ) => {
        const written = await put(trx, 'customers', {
          id: r.id,
          first_name: r.first_name,
          last_name: r.last_name,
          preferred_name: r.preferred_name ?? '',
          email: r.email ?? null,
          telephone: r.telephone ?? '',
          birthday: r.birthday ?? '',
          barcode: r.barcode ?? null,
          is_active: flag(r.is_active),
          home_location_id: r.home_location_id ?? null,
          address_street_1: r.address_street_1 ?? '',
          address_street_2: r.address_street_2 ?? '',
          address_city: r.address_city ?? '',
          address_state: r.address_state ?? '',
          address_postcode: r.address_postcode ?? '',
          address_country: r.address_country ?? '',
          profile_image_url: ownPath(r.profile_image_url ?? '', source),
          first_check_in_timestamp: r.first_check_in_timestamp ?? null,
          ...stamps(r),
        })
        const photo = photos.get(r.id)
        if (written && photo)
          await put(trx, 'customer_photos', {
            customer_id: r.id,
            content_type: photo.contentType,
            content: photo.bytes,
            taken_at: r.updated_at,
          })
        return written
      },
    ),
  },
  {
    name: 'customer alerts',
    path: (id) => `/api/customers/${id}/alerts/`,
    parents: ids('customers'),
    write: each(async (trx, r, parent) =>
      put(trx, 'customer_alerts', {
        id: r.id,
        customer_id: Number(r.customer_id ?? parent),
        alert_text: r.alert_text,
        color_hex: r.color_hex,
        prevents_check_in: flag(r.prevents_check_in),
        is_active: flag(r.is_active),
        created_date: r.created_date,
        ...stamps(r),
      }),
    ),
  },
  {
    name: 'customer documents',
    path: (id) => `/api/customers/${id}/documents/`,
    parents: ids('customers'),
    prepare: async (records, { source }) => {
      const files = new Map<number, { contentType: string; bytes: Uint8Array }>()
      for (const r of records) {
        if (typeof r.pdf !== 'string') continue
        const file = await source.file(r.pdf)
        if (file) files.set(r.id, file)
      }
      return files
    },
    write: each(
      async (trx, r, parent, _context, files: Map<number, { contentType: string; bytes: Uint8Array }>) => {
        const written = await put(trx, 'customer_documents', {
          id: r.id,
          customer_id: Number(parent),
          name: r.name,
          kind: r.kind,
          expiration_date: r.expiration_date ?? null,
          ...stamps(r),
        })
        const file = files.get(r.id)
        if (written && file)
          await put(trx, 'customer_document_files', {
            document_id: r.id,
            content_type: file.contentType,
            content: file.bytes,
          })
        return written
      },
    ),
  },
  {
    name: 'customer credits',
    path: (id) => `/api/customers/${id}/credits/`,
    parents: ids('customers'),
    write: each(async (trx, r, parent) =>
      put(trx, 'customer_credits', {
        id: r.id,
        customer_id: Number(parent),
        amount_total_cents: cents(r.amount_total),
        amount_remaining_cents: cents(r.amount_remaining),
        expiry_date: r.expiry_date ?? null,
        is_removed: flag(r.is_removed),
        created_by_id: r.created_by_id ?? null,
        ...stamps(r),
      }),
    ),
  },
  {
    name: 'customer emergency contacts',
    path: (id) => `/api/customers/${id}/emergency-contacts/`,
    parents: ids('customers'),
    write: each(async (trx, r, parent) =>
      put(trx, 'customer_emergency_contacts', {
        id: r.id,
        customer_id: Number(parent),
        first_name: r.first_name,
        last_name: r.last_name,
        telephone: r.telephone,
        email: r.email ?? '',
        relation: r.relation ?? '',
        ...stamps(r),
      }),
    ),
  },
  {
    name: 'customer medical notes',
    path: (id) => `/api/customers/${id}/medical-notes/`,
    parents: ids('customers'),
    write: each(async (trx, r, parent) =>
      put(trx, 'customer_medical_notes', {
        id: r.id,
        customer_id: Number(parent),
        medical_notes: r.medical_notes,
        ...stamps(r),
      }),
    ),
  },
  {
    name: 'customer relations',
    path: (id) => `/api/customers/${id}/relations/`,
    parents: ids('customers'),
    write: each(async (trx, r, parent) =>
      put(trx, 'customer_relations', {
        id: r.id,
        customer_id: Number(parent),
        related_customer_id: r.related_customer_id,
        relation: r.relation,
        ...stamps(r),
      }),
    ),
  },
  {
    name: 'customer event vouchers',
    path: (id) => `/api/customers/${id}/event-vouchers/`,
    parents: ids('customers'),
    write: each(async (trx, r, parent) =>
      put(trx, 'customer_event_vouchers', {
        id: r.id,
        customer_id: Number(parent),
        event_type_id: r.event_type_id,
        number_of_uses_total: r.number_of_uses_total,
        number_of_uses_remaining: r.number_of_uses_remaining,
        expiry_date: r.expiry_date ?? null,
        is_removed: flag(r.is_removed),
        created_by_id: r.created_by_id ?? null,
        ...stamps(r),
      }),
    ),
  },
]
