import { beforeEach, describe, expect, test } from 'bun:test'
import { makeCustomer } from '../helpers/customer-factories.ts'
import { invalidToken, methodNotAllowed, notFound } from '../helpers/bodies.ts'
import { makeEventType } from '../helpers/factories.ts'
import { expectUnauthenticated, unknownToken, useSeededApp, useStaff } from '../helpers/seeded.ts'

/*
 * OPTIONS on every /api/ path: DRF's SimpleMetadata, read from the OpenAPI document the box serves
 * (src/http/options-metadata.ts). Every answer here is also checked against the document's own
 * `options` operation of its path (the request helper's check).
 */

const t = useSeededApp()
const staff = useStaff(t, 'members')

/** The document as the box serves it. */
async function documentOf(): Promise<any> {
  const res = await t.request('GET', '/swagger/json')
  expect(res.status).toBe(200)
  return res.body
}

const options = (path: string, token?: string) => t.request('OPTIONS', path, { token })

const writable = (type: string, required: boolean, label: string, more: object = {}) => ({
  type,
  required,
  read_only: false,
  label,
  ...more,
})
const readOnly = (type: string, label: string, more: object = {}) => ({
  type,
  required: false,
  read_only: true,
  label,
  ...more,
})

describe('OPTIONS on a collection', () => {
  test("/api/customers/ names the list, its media types and the POST's fields", async () => {
    const doc = await documentOf()
    const res = await options('/api/customers/', staff.members.token)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('application/json')
    expect(res.headers.get('allow')).toBe('GET, POST, HEAD, OPTIONS')
    const conflictNote = [
      'On a box that is a site of a hub: the barcodes given to this customer at one site while another',
      "site, cut off from it, gave the same barcode to another customer first. That customer kept it; this one's",
      'was cleared, at every site. Listed while this customer has no barcode: giving them a new one settles it',
      '(the desk shows it among the alerts). `[]` on a box without a hub; all conflicts are at `/api/sites/conflicts/`.',
    ].join(' ')
    const conflict = (type: string, label: string, more: object = {}) => ({
      type,
      required: true,
      read_only: true,
      label,
      ...more,
    })
    expect(res.body).toEqual({
      name: 'Customer List',
      description: doc.paths['/api/customers/'].get.description,
      // The list also answers format=csv.
      renders: ['application/json', 'text/html', 'text/csv'],
      parses: ['application/json'],
      actions: {
        POST: {
          id: readOnly('integer', 'Id'),
          url: readOnly('url', 'Url'),
          first_name: writable('string', true, 'First name', { min_length: 1, max_length: 150 }),
          last_name: writable('string', true, 'Last name', { min_length: 1, max_length: 150 }),
          preferred_name: writable('string', false, 'Preferred name', { max_length: 150 }),
          email: writable('email', false, 'Email', {
            help_text: 'An email address; null or "" for none (read back as null)',
            max_length: 254,
          }),
          telephone: writable('string', false, 'Telephone', { max_length: 50 }),
          birthday: writable('date', true, 'Birthday', {
            help_text: "Not after the organization's today, not before 1900-01-01",
          }),
          barcode: writable('string', false, 'Barcode', {
            help_text: 'Unique; at most 128 characters; null or "" for none (read back as null)',
            max_length: 128,
          }),
          is_active: writable('boolean', false, 'Is active', {
            help_text: 'False deactivates the customer (there is no DELETE)',
          }),
          home_location_id: writable('integer', false, 'Home location id', { help_text: 'A gym id' }),
          home_location_name: readOnly('string', 'Home location name'),
          home_location_url: readOnly('url', 'Home location url'),
          address_street_1: writable('string', false, 'Address street 1', { max_length: 255 }),
          address_street_2: writable('string', false, 'Address street 2', { max_length: 255 }),
          address_city: writable('string', false, 'Address city', { max_length: 255 }),
          address_state: writable('string', false, 'Address state', { max_length: 255 }),
          address_postcode: writable('string', false, 'Address postcode', { max_length: 32 }),
          address_country: writable('string', false, 'Address country', {
            help_text: 'ISO 3166-1 two-letter country code (any case, stored upper case), or ""',
          }),
          profile_image_url: writable('string', false, 'Profile image url', {
            help_text: 'An http(s) URL (the scheme in any case), or ""',
            max_length: 1000,
          }),
          first_check_in_timestamp: readOnly('datetime', 'First check in timestamp'),
          has_active_membership: readOnly('boolean', 'Has active membership', {
            help_text:
              'A member, not individually frozen, of a customer membership in an active status (`ACT`, `IPP` or `PPR`)',
          }),
          active_waiver_exists: readOnly('boolean', 'Active waiver exists', {
            help_text:
              "Has a waiver document expiring today or later in the organization's zone, or never: the door asks the same, in its gym's zone, when the organization requires a waiver",
          }),
          latest_waiver_expiration_date: readOnly('date', 'Latest waiver expiration date', {
            help_text:
              'The latest expiration date of the waivers; null when there is no waiver or one never expires',
          }),
          site_conflicts: readOnly('list', 'Site conflicts', {
            help_text: conflictNote,
            child: {
              type: 'nested object',
              required: true,
              read_only: true,
              children: {
                barcode: conflict('string', 'Barcode', { help_text: 'The barcode this customer lost' }),
                site: conflict('string', 'Site', { help_text: 'The site that gave it to this customer' }),
                kept_by_customer_id: conflict('integer', 'Kept by customer id', {
                  help_text: 'The customer who kept it',
                }),
                kept_by_customer_url: conflict('url', 'Kept by customer url'),
                kept_by_customer_name: conflict('string', 'Kept by customer name', {
                  help_text: 'Their first and last name; null should they not be on this box',
                }),
                detected_at: conflict('datetime', 'Detected at'),
              },
            },
          }),
          created_at: readOnly('datetime', 'Created at'),
          updated_at: readOnly('datetime', 'Updated at'),
          credits_url: readOnly('url', 'Credits url'),
          emergency_contacts_url: readOnly('url', 'Emergency contacts url'),
          medical_notes_url: readOnly('url', 'Medical notes url'),
          relations_url: readOnly('url', 'Relations url'),
          documents_url: readOnly('url', 'Documents url'),
          event_vouchers_url: readOnly('url', 'Event vouchers url'),
          alerts_url: readOnly('url', 'Alerts url'),
          check_ins_url: readOnly('url', 'Check ins url'),
        },
      },
    })
    expect(res.body.description).toStartWith('Any staff user.\n\nOrdered by last name, then first name')
  })

  test('a desk user who may read customers but not write them gets no actions', async () => {
    const doc = await documentOf()
    const res = await options('/api/customers', t.seed.staffToken)
    expect(res.status).toBe(200)
    expect(res.headers.get('allow')).toBe('GET, POST, HEAD, OPTIONS')
    expect(res.body).toEqual({
      name: 'Customer List',
      description: doc.paths['/api/customers/'].get.description,
      renders: ['application/json', 'text/html', 'text/csv'],
      parses: ['application/json'],
    })
  })

  test('an upload collection parses multipart too; a collection nobody writes has no actions', async () => {
    const customer = await makeCustomer(t.db)
    const documents = await options(`/api/customers/${customer.id}/documents/`, t.seed.adminToken)
    expect(documents.body.name).toBe('Customer Document List')
    expect(documents.body.parses).toEqual(['application/json', 'multipart/form-data'])
    expect(Object.keys(documents.body.actions)).toEqual(['POST'])

    const payments = await options('/api/payments/', t.seed.adminToken)
    expect(payments.headers.get('allow')).toBe('GET, HEAD, OPTIONS')
    expect(payments.body.name).toBe('Payment List')
    expect(payments.body.actions).toBeUndefined()
  })

  test('get-token answers without a token: it parses a form, and its POST takes username and password', async () => {
    const res = await options('/api/get-token/')
    expect(res.status).toBe(200)
    expect(res.headers.get('allow')).toBe('POST, OPTIONS')
    expect(res.body.name).toBe('Get token')
    expect(res.body.parses).toEqual(['application/json', 'application/x-www-form-urlencoded'])
    expect(res.body.actions).toEqual({
      POST: {
        token: readOnly('string', 'Token', { help_text: '40 hex characters' }),
        username: writable('string', true, 'Username', {
          help_text: "The staff user's email (any case)",
          min_length: 1,
        }),
        password: writable('string', true, 'Password', { min_length: 1 }),
      },
    })
  })
})

describe('OPTIONS on a record', () => {
  test("a gym's PUT fields, with a choice and a bound", async () => {
    const doc = await documentOf()
    const res = await options(`/api/gyms/${t.seed.gym.id}/`, t.seed.adminToken)
    expect(res.status).toBe(200)
    expect(res.headers.get('allow')).toBe('GET, PUT, PATCH, HEAD, OPTIONS')
    expect(res.body).toEqual({
      name: 'Gym Instance',
      description: doc.paths['/api/gyms/{id}/'].get.description,
      renders: ['application/json', 'text/html'],
      parses: ['application/json'],
      actions: {
        PUT: {
          id: readOnly('integer', 'Id'),
          url: readOnly('url', 'Url'),
          name: writable('string', true, 'Name', { min_length: 1, max_length: 255 }),
          hide_setter: writable('boolean', false, 'Hide setter'),
          time_zone: writable('string', true, 'Time zone', {
            help_text:
              'IANA time zone (`America/Denver`). Stored in its canonical spelling (`america/denver` becomes `America/Denver`); a name the runtime does not know, or a bare offset such as `UTC+2`, is `A valid timezone is required.`',
          }),
          scheduler_url_path: writable('string', false, 'Scheduler url path', {
            help_text:
              "Letters, numbers and hyphens: names the gym in its event types' `service_scheduler_url` (`/scheduler/<path>/event-types/<id>/`); empty (the default) uses the gym id instead",
          }),
          scheduler_landing_page_text: writable('string', false, 'Scheduler landing page text', {
            help_text: 'Markdown',
          }),
          scheduler_first_day_of_week: writable('choice', false, 'Scheduler first day of week', {
            help_text: 'SUN (the default) or MON',
            choices: [
              { value: 'SUN', display_name: 'Sunday' },
              { value: 'MON', display_name: 'Monday' },
            ],
          }),
          capacity: writable('integer', false, 'Capacity', {
            help_text:
              "People allowed inside at once (null: no limit); the front desk's occupancy bar reads it",
            min_value: 1,
          }),
          combine_same_day_check_ins: writable('boolean', false, 'Combine same day check ins', {
            help_text:
              "Record at most one check-in per customer per day in the gym's zone: a second scan the same day answers with the first check-in and records nothing (default false)",
          }),
          created_at: readOnly('datetime', 'Created at'),
          updated_at: readOnly('datetime', 'Updated at'),
          climbs_url: readOnly('url', 'Climbs url'),
          grades_url: readOnly('url', 'Grades url'),
          sections_url: readOnly('url', 'Sections url'),
        },
      },
    })
  })

  test('the same record to a user who may not change it: no actions', async () => {
    const res = await options(`/api/gyms/${t.seed.gym.id}/`, t.seed.staffToken)
    expect(res.status).toBe(200)
    expect(res.body.name).toBe('Gym Instance')
    expect(res.body.actions).toBeUndefined()
  })

  test("a record that does not exist offers no PUT (DRF's get_object); an id that is no number is 404", async () => {
    const customer = await makeCustomer(t.db)
    const found = await options(`/api/customers/${customer.id}/`, t.seed.adminToken)
    expect(found.body.name).toBe('Customer Instance')
    expect(Object.keys(found.body.actions)).toEqual(['PUT'])

    const missing = await options(`/api/customers/${customer.id + 1}/`, t.seed.adminToken)
    expect(missing.status).toBe(200)
    expect(missing.headers.get('allow')).toBe('GET, PUT, PATCH, HEAD, OPTIONS')
    expect(missing.body.name).toBe('Customer Instance')
    expect(missing.body.actions).toBeUndefined()

    for (const id of ['abc', '1e1', '0x0A', '9007199254740993']) {
      const res = await options(`/api/customers/${id}/`, t.seed.adminToken)
      expect({ id, status: res.status, body: res.body }).toEqual({ id, status: 404, body: notFound })
    }
  })

  test('an action path is named after its segment and offers its POST', async () => {
    const res = await options('/api/customer-memberships/1/freeze/', t.seed.adminToken)
    expect(res.status).toBe(200)
    expect(res.headers.get('allow')).toBe('POST, OPTIONS')
    expect(res.body.name).toBe('Freeze')
    expect(res.body.actions.POST.member_id).toEqual(
      writable('integer', false, 'Member id', {
        help_text: 'One member (a customer id) instead of the whole membership',
      }),
    )
    expect(res.body.actions.POST.status).toEqual(readOnly('string', 'Status'))
  })
})

describe('OPTIONS refused', () => {
  test('without a token, or with an unknown one, it is the 401 a GET gets', async () => {
    for (const path of ['/api/customers/', `/api/gyms/${t.seed.gym.id}/`, '/api/customers/abc/']) {
      expectUnauthenticated(await options(path))
      expectUnauthenticated(await options(path, unknownToken), invalidToken)
    }
  })

  test('a path no route serves is 404; a path outside /api/ keeps its 405', async () => {
    const unknown = await options('/api/no-such-collection/', t.seed.adminToken)
    expect({ status: unknown.status, body: unknown.body }).toEqual({ status: 404, body: notFound })
    const health = await options('/healthz')
    expect({ status: health.status, body: health.body }).toEqual({
      status: 405,
      body: methodNotAllowed('OPTIONS'),
    })
  })
})

describe("OPTIONS against the document's schemas", () => {
  let ids: Record<string, number>
  beforeEach(async () => {
    const customer = await makeCustomer(t.db)
    const eventType = await makeEventType(t.db)
    ids = { customer_id: customer.id, 'event-types': eventType.id, gyms: t.seed.gym.id }
  })

  /** A collection's path with real parent ids: `{customer_id}`, and `{id}` after its collection. */
  const pathOf = (template: string) =>
    template
      .split('/')
      .map((segment, i, all) => {
        if (segment === '{customer_id}') return String(ids.customer_id)
        // A parent no collection here writes under (a webhook's deliveries) needs none that exists.
        if (segment === '{id}') return String(ids[all[i - 1]!] ?? 1)
        return segment
      })
      .join('/')

  test('every collection: its name, and its POST fields are its request schema fields', async () => {
    const doc = await documentOf()
    const resolve = (schema: any): any =>
      schema?.$ref ? doc.components.schemas[decodeURIComponent(schema.$ref.split('/').pop())] : schema
    /** What DRF would call a field of this schema, with its length and choices, told plainly. */
    const expected = (schema: any, required: boolean) => {
      let s = resolve(schema)
      let others = (s.anyOf ?? []).filter((b: any) => resolve(b).type !== 'null')
      // An email or "" (DRF's allow_blank) is an email field.
      const texts = others.filter((b: any) => b.type === 'string' && !('const' in b))
      if (texts.length === 1 && others.every((b: any) => b.type === 'string')) others = texts
      if (s.anyOf && others.length === 1) s = resolve(others[0])
      else if (s.anyOf) s = { ...s, anyOf: others }
      const values: unknown[] | undefined =
        s.enum ?? (s.anyOf?.every((b: any) => 'const' in b) ? s.anyOf.map((b: any) => b.const) : undefined)
      // Each value's name: its constant's description, or an enum's `x-enumNames`.
      const names: string[] = s.enum
        ? (s['x-enumNames'] ?? [])
        : (s.anyOf?.map((b: any) => b.description) ?? [])
      const formats: Record<string, string> = {
        date: 'date',
        'date-time': 'datetime',
        email: 'email',
        'email-or-blank': 'email',
        uri: 'url',
        binary: 'file upload',
      }
      const type = values
        ? 'choice'
        : s.anyOf
          ? 'decimal'
          : s.type === 'string'
            ? (formats[s.format] ?? 'string')
            : (
                {
                  integer: 'integer',
                  number: 'float',
                  boolean: 'boolean',
                  array: 'list',
                  object: 'nested object',
                } as any
              )[s.type]
      return {
        type,
        required,
        read_only: false,
        ...(s.maxLength !== undefined ? { max_length: s.maxLength } : {}),
        ...(values
          ? { choices: values.map((value, i) => ({ value, display_name: names[i] ?? String(value) })) }
          : {}),
      }
    }
    const picked = (field: any) => ({
      type: field.type,
      required: field.required,
      read_only: field.read_only,
      ...(field.max_length !== undefined ? { max_length: field.max_length } : {}),
      ...(field.choices !== undefined ? { choices: field.choices } : {}),
    })

    const collections = Object.entries(doc.paths as Record<string, any>).filter(([, item]) =>
      /^#\/components\/schemas\/Paginated.+List$/.test(
        item.get?.responses?.['200']?.content?.['application/json']?.schema?.$ref ?? '',
      ),
    )
    expect(collections.length).toBeGreaterThan(30)
    let withPost = 0
    for (const [template, item] of collections) {
      const res = await options(pathOf(template), t.seed.adminToken)
      expect({ template, status: res.status }).toEqual({ template, status: 200 })
      const itemName =
        item.get.responses['200'].content['application/json'].schema.$ref.match(/Paginated(.+)List$/)[1]
      expect({ template, name: res.body.name }).toEqual({
        template,
        name: `${itemName.replace(/([a-z0-9])([A-Z])/g, '$1 $2')} List`,
      })
      expect({ template, description: res.body.description }).toEqual({
        template,
        description: item.get.description,
      })
      if (item.post === undefined) {
        expect({ template, actions: res.body.actions }).toEqual({ template, actions: undefined })
        continue
      }
      withPost += 1
      const content = item.post.requestBody.content
      const request = resolve((content['application/json'] ?? content['multipart/form-data']).schema)
      const want = Object.fromEntries(
        Object.entries(request.properties).map(([name, schema]) => [
          name,
          expected(schema, (request.required ?? []).includes(name)),
        ]),
      )
      const got = Object.fromEntries(
        Object.entries(res.body.actions.POST as Record<string, any>)
          .filter(([, field]) => !field.read_only)
          .map(([name, field]) => [name, picked(field)]),
      )
      expect({ template, fields: got }).toEqual({ template, fields: want })
    }
    expect(withPost).toBeGreaterThan(25)
  })

  test("every choice in every answer has a name of its own (DRF's display_name), not its code", async () => {
    const doc = await documentOf()
    const unnamed: string[] = []
    const named = new Set<string>()
    /** Every choice of a field and of the fields inside it (a sale's lines, a list's items). */
    const walk = (where: string, field: any) => {
      for (const choice of field.choices ?? []) {
        if (typeof choice.display_name !== 'string' || choice.display_name === String(choice.value))
          unnamed.push(`${where} ${JSON.stringify(choice.value)}`)
        else named.add(where)
      }
      if (field.child) walk(`${where}[]`, field.child)
      for (const [name, child] of Object.entries(field.children ?? {})) walk(`${where}.${name}`, child)
    }
    for (const template of Object.keys(doc.paths)) {
      if (!template.startsWith('/api/')) continue
      const res = await options(pathOf(template), t.seed.adminToken)
      if (res.status !== 200) continue
      for (const [method, fields] of Object.entries((res.body.actions ?? {}) as Record<string, any>))
        for (const [name, field] of Object.entries(fields)) walk(`${method} ${template} ${name}`, field)
    }
    expect(unnamed).toEqual([])
    // The choice sets of the writes: statuses, purchase and payment types, relations, disciplines...
    expect(named.size).toBeGreaterThan(20)
  })
})

test("the document names every choice of a write's body and of a list's filters", async () => {
  const doc = await documentOf()
  const unnamed: string[] = []
  let choices = 0
  const walk = (where: string, schema: any, seen: Set<string>) => {
    if (schema === null || typeof schema !== 'object') return
    if (typeof schema.$ref === 'string') {
      const name = decodeURIComponent(schema.$ref.split('/').pop())
      if (seen.has(name)) return
      return walk(where, doc.components.schemas[name], new Set([...seen, name]))
    }
    const consts = Array.isArray(schema.anyOf) && schema.anyOf.every((b: any) => b && 'const' in b)
    if (consts) choices += 1
    if (consts && schema.anyOf.length > 1)
      for (const b of schema.anyOf) if (!b.description) unnamed.push(`${where} ${JSON.stringify(b.const)}`)
    if (Array.isArray(schema.enum)) {
      choices += 1
      if (schema['x-enumNames']?.length !== schema.enum.length) unnamed.push(`${where} ${schema.enum}`)
    }
    for (const [key, child] of Object.entries(schema)) walk(`${where}.${key}`, child, seen)
  }
  for (const [template, item] of Object.entries(doc.paths as Record<string, any>))
    for (const [method, operation] of Object.entries(item as Record<string, any>)) {
      for (const p of operation.parameters ?? [])
        if (p.in === 'query') walk(`${method} ${template} ?${p.name}`, p.schema, new Set())
      for (const media of Object.values(operation.requestBody?.content ?? {}) as any[])
        walk(`${method} ${template} body`, media.schema, new Set())
    }
  expect(unnamed).toEqual([])
  expect(choices).toBeGreaterThan(30)
})

describe('OPTIONS names each choice as the API reference does', () => {
  const choicesOf = async (path: string, method: 'POST' | 'PUT', field: string[]) => {
    const res = await options(path, t.seed.adminToken)
    expect(res.status).toBe(200)
    let info = res.body.actions[method][field[0]!]
    for (const name of field.slice(1)) info = name === '[]' ? info.child : info.children[name]
    return info.choices
  }

  test("a customer's relation", async () => {
    const customer = await makeCustomer(t.db)
    expect(await choicesOf(`/api/customers/${customer.id}/relations/`, 'POST', ['relation'])).toEqual([
      { value: 'SPO', display_name: 'Spouse' },
      { value: 'PRT', display_name: 'Partner' },
      { value: 'PRE', display_name: 'Parent' },
      { value: 'CHI', display_name: 'Child' },
      { value: 'GUA', display_name: 'Guardian' },
      { value: 'WAR', display_name: 'Ward' },
      { value: 'SIB', display_name: 'Sibling' },
      { value: 'OTH', display_name: 'Other' },
    ])
  })

  test("a membership's status: reference 3.3's names, then those it leaves out", async () => {
    expect(await choicesOf('/api/customer-memberships/', 'POST', ['status'])).toEqual([
      { value: 'ACT', display_name: 'Active' },
      { value: 'IPP', display_name: 'Initial Payment Processing' },
      { value: 'PPR', display_name: 'Renewal Payment Processing' },
      { value: 'FRZ', display_name: 'Frozen' },
      { value: 'FPR', display_name: 'Freeze Payment Processing' },
      { value: 'PAF', display_name: 'Renewal Payment Failed' },
      { value: 'FPF', display_name: 'Freeze Payment Failed' },
      { value: 'PAY', display_name: 'Awaiting Initial Payment' },
      { value: 'IPC', display_name: 'Initial Payment Pending' },
      { value: 'CAN', display_name: 'Cancelled' },
      { value: 'END', display_name: 'Ended' },
      { value: 'DEN', display_name: 'Denied' },
    ])
  })

  test("a sale's line purchase types and its payments' types, methods and statuses", async () => {
    expect(await choicesOf('/api/invoices/', 'POST', ['line_items', '[]', 'purchase_type'])).toEqual([
      { value: 'GEN', display_name: 'Generic' },
      { value: 'MIN', display_name: 'Membership (initial)' },
      { value: 'MRE', display_name: 'Membership (recurring)' },
      { value: 'EPA', display_name: 'Entry pass' },
      { value: 'BOO', display_name: 'Event booking' },
      { value: 'VPO', display_name: 'Voucher pack' },
      { value: 'EVV', display_name: 'Event voucher' },
      { value: 'GIF', display_name: 'Gift' },
    ])
    expect(await choicesOf('/api/invoices/', 'POST', ['payments', '[]', 'payment_type'])).toEqual([
      { value: 'STR', display_name: 'Card processor A' },
      { value: 'GRA', display_name: 'Card processor B' },
      { value: 'MXM', display_name: 'Card processor C' },
      { value: 'SQU', display_name: 'Card processor D' },
      { value: 'VEN', display_name: 'Point-of-sale system' },
      { value: 'CRE', display_name: 'Account credit' },
      { value: 'VOU', display_name: 'Voucher' },
      { value: 'OFF', display_name: 'Offline/recorded' },
      { value: 'PGI', display_name: 'Point-of-sale gift card' },
      { value: 'MIG', display_name: 'Migrated from legacy software' },
      { value: 'MOK', display_name: 'Mock (test)' },
      { value: 'NA', display_name: 'Not applicable' },
    ])
    expect(await choicesOf('/api/invoices/', 'POST', ['payments', '[]', 'payment_method_type'])).toEqual([
      { value: 'NA', display_name: 'Not applicable' },
      { value: 'CRD', display_name: 'Card' },
      { value: 'BNK', display_name: 'Bank account' },
    ])
    expect(await choicesOf('/api/invoices/', 'POST', ['payments', '[]', 'status'])).toEqual([
      { value: 'COM', display_name: 'Payment Complete' },
      { value: 'PRO', display_name: 'Payment Processing' },
    ])
  })

  test("a membership type's status, purchase type and interval (blank: not recurring)", async () => {
    expect(await choicesOf('/api/memberships/', 'POST', ['status'])).toEqual([
      { value: 'DRA', display_name: 'Draft' },
      { value: 'ACT', display_name: 'Active' },
      { value: 'RET', display_name: 'Retired' },
    ])
    expect(await choicesOf('/api/memberships/', 'POST', ['purchase_type'])).toEqual([
      { value: 'REC', display_name: 'Recurring' },
      { value: 'PRE', display_name: 'Prepaid' },
      { value: 'BEN', display_name: 'Benefit' },
    ])
    expect(await choicesOf('/api/memberships/', 'POST', ['interval'])).toEqual([
      { value: '', display_name: 'None (not recurring)' },
      { value: 'WEE', display_name: 'Weekly' },
      { value: 'BWK', display_name: 'Every two weeks' },
      { value: 'FWK', display_name: 'Every four weeks' },
      { value: 'MON', display_name: 'Monthly' },
      { value: 'QUA', display_name: 'Quarterly' },
      { value: 'HYR', display_name: 'Every six months' },
      { value: 'YRL', display_name: 'Yearly' },
    ])
  })
})
