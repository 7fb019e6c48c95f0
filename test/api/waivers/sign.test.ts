import { describe, expect, test } from 'bun:test'
import { ORIGIN, START } from '../../helpers/app.ts'
import { blank, doesNotExist, forbidden, invalidDate, required } from '../../helpers/bodies.ts'
import { makeCheckIn } from '../../helpers/check-in-factories.ts'
import { makeCustomer } from '../../helpers/customer-factories.ts'
import { barcodePath, makeDoorCustomer, makeMembershipFor } from '../../helpers/door-factories.ts'
import { countRows } from '../../helpers/factories.ts'
import { expectUnauthenticated, useSeededApp, useStaff } from '../../helpers/seeded.ts'
import { BLANK_SIGNATURE, dataUrl, makePng, pdfText, SIGNATURE } from '../../helpers/waiver-files.ts'

const t = useSeededApp()
const staff = useStaff(t, 'members', 'allButMembers')

const SIGN = '/api/waivers/sign/'
// START is 08:04 on 2026-11-22 in the organization's zone (America/Denver).
const TODAY = '2026-11-22'

const writeText = (fields: Record<string, unknown> = {}) =>
  t.request('POST', '/api/waiver-texts/', {
    token: t.seed.adminToken,
    body: { text: 'Climbing is dangerous.\n\nI accept the risks.', valid_for_days: 365, ...fields },
  })

const adult = (fields: Record<string, unknown> = {}) => ({
  waiver_text_version: 1,
  first_name: 'Alex',
  last_name: 'Honnold',
  birthday: '1985-08-17',
  email: 'alex@example.com',
  telephone: '555-0100',
  signature: SIGNATURE,
  ...fields,
})

const sign = (body: unknown, token = staff.members.token) => t.request('POST', SIGN, { token, body })

/** Every table a signing writes, counted: a refusal leaves each as it was. */
const written = async () => ({
  customers: await countRows(t.db, 'customers'),
  documents: await countRows(t.db, 'customer_documents'),
  files: await countRows(t.db, 'customer_document_files'),
  signatures: await countRows(t.db, 'waiver_signatures'),
})
const nothing = { customers: 0, documents: 0, files: 0, signatures: 0 }

async function storedPdf(customerId: number, documentId: number) {
  const res = await t.app.handle(
    new Request(`${ORIGIN}/api/customers/${customerId}/documents/${documentId}/pdf/`, {
      headers: { authorization: `Token ${t.seed.staffToken}` },
    }),
  )
  expect(res.headers.get('content-type')).toBe('application/pdf')
  return pdfText(new Uint8Array(await res.arrayBuffer()))
}

describe('POST /api/waivers/sign/ 401 and 403', () => {
  test('without a token it is 401, and writes nothing', async () => {
    await writeText()
    expectUnauthenticated(await t.request('POST', SIGN, { body: adult() }))
    expect(await written()).toEqual(nothing)
  })

  test('staff without can_manage_members are refused, whatever they send', async () => {
    await writeText()
    const res = await sign(adult(), staff.allButMembers.token)
    expect({ status: res.status, body: res.body }).toEqual({ status: 403, body: forbidden })
    expect(await written()).toEqual(nothing)
  })
})

describe('POST /api/waivers/sign/ 400 writes nothing', () => {
  const cases: Array<[string, () => Record<string, unknown>, unknown]> = [
    [
      'an empty body',
      () => ({}),
      {
        waiver_text_version: required,
        first_name: required,
        last_name: required,
        birthday: required,
        telephone: required,
        signature: required,
      },
    ],
    [
      'blank names, a bad date and a blank phone',
      () => adult({ first_name: ' ', last_name: '', birthday: '17/08/1985', telephone: '' }),
      { first_name: blank, last_name: blank, birthday: invalidDate, telephone: blank },
    ],
    [
      'a birthday after today',
      () => adult({ birthday: '2026-11-23' }),
      { birthday: [`Ensure this value is less than or equal to ${TODAY}.`] },
    ],
    [
      'a minor (17 today) without a guardian',
      () => adult({ birthday: '2008-11-23' }),
      { guardian_name: ['A parent or guardian signs for a customer under 18: enter their name.'] },
    ],
    [
      'an adult (18 today) with a guardian',
      () => adult({ birthday: '2008-11-22', guardian_name: 'Dean Potter' }),
      { guardian_name: ['Only a customer under 18 signs with a guardian: leave this empty.'] },
    ],
    [
      'a version that does not exist',
      () => adult({ waiver_text_version: 9 }),
      { waiver_text_version: doesNotExist(9) },
    ],
    [
      'a signature that is no data URL',
      () => adult({ signature: 'https://example.com/sig.png' }),
      { signature: ['Sign with a PNG image sent as a data URL (data:image/png;base64,...).'] },
    ],
    [
      'a signature that is no PNG',
      () => adult({ signature: `data:image/png;base64,${btoa('<svg onload=alert(1)>')}` }),
      { signature: ['The signature is not a valid PNG image.'] },
    ],
    [
      'a truncated PNG',
      () => adult({ signature: SIGNATURE.slice(0, 'data:image/png;base64,'.length + 200) }),
      { signature: ['The signature is not a valid PNG image.'] },
    ],
    [
      'a blank signature',
      () => adult({ signature: BLANK_SIGNATURE }),
      { signature: ['The signature is blank: sign in the box.'] },
    ],
    [
      'a signature of more than 2,000,000 pixels',
      () => adult({ signature: dataUrl(makePng(2001, 1000, (x, y) => x === y)) }),
      { signature: ['The signature image has more than 2000000 pixels.'] },
    ],
  ]
  for (const [name, body, errors] of cases) {
    test(`${name}`, async () => {
      await writeText()
      const res = await sign(body())
      expect({ status: res.status, body: res.body }).toEqual({ status: 400, body: errors })
      expect(await written()).toEqual(nothing)
    })
  }

  test('a version that is no longer current: the text changed while the customer read it', async () => {
    await writeText()
    await writeText({ text: 'A new text.' })
    const res = await sign(adult({ waiver_text_version: 1 }))
    expect({ status: res.status, body: res.body }).toEqual({
      status: 400,
      body: {
        waiver_text_version: [
          'The waiver text changed while it was being read: version 2 is current. Read it and sign again.',
        ],
      },
    })
    expect(await written()).toEqual(nothing)
  })

  test('before an admin has written a text, nothing can be signed', async () => {
    const res = await sign(adult())
    expect({ status: res.status, body: res.body }).toEqual({
      status: 400,
      body: { waiver_text_version: doesNotExist(1) },
    })
  })
})

describe('POST /api/waivers/sign/ 201', () => {
  test('an adult nobody knows: a customer is created, with their waiver as a PDF that names them', async () => {
    await writeText()
    const res = await sign(adult({ first_name: 'Zoë', last_name: 'Łukasz' }))
    const customerId = res.body.customer_id
    const documentId = res.body.document.id
    const url = `${ORIGIN}/api/customers/${customerId}/documents/${documentId}/`
    expect({ status: res.status, body: res.body }).toEqual({
      status: 201,
      body: {
        customer_id: customerId,
        customer_url: `${ORIGIN}/api/customers/${customerId}/`,
        customer_first_name: 'Zoë',
        customer_last_name: 'Łukasz',
        customer_created: true,
        is_minor: false,
        guardian_name: '',
        waiver_text_version: 1,
        signed_at: START,
        document: {
          id: documentId,
          url,
          name: 'Waiver (version 1)',
          kind: 'waiver',
          pdf: `${url}pdf/`,
          expiration_date: '2027-11-22',
          is_expired: false,
          created_at: START,
          updated_at: START,
        },
      },
    })
    const customer = await t.request('GET', `/api/customers/${customerId}/`, { token: t.seed.staffToken })
    expect(customer.body).toMatchObject({
      first_name: 'Zoë',
      last_name: 'Łukasz',
      birthday: '1985-08-17',
      email: 'alex@example.com',
      telephone: '555-0100',
      active_waiver_exists: true,
      latest_waiver_expiration_date: '2027-11-22',
    })
    const pdf = await storedPdf(customerId, documentId)
    // The standard font has ë but no Ł: the page prints it as L; the title and record keep it.
    expect(pdf.title).toBe('Waiver version 1 signed by Zoë Łukasz')
    expect(pdf.text).toContain('Waiver text, version 1')
    expect(pdf.text).toContain('Climbing is dangerous.')
    expect(pdf.text).toContain('Name: Zoë Lukasz')
    expect(pdf.text).toContain('Signed at: 2026-11-22 08:04 (America/Denver)')
    expect(pdf.text).toContain('Valid through: 2027-11-22')
    expect(await written()).toEqual({ customers: 1, documents: 1, files: 1, signatures: 1 })
    const signing = await t.db.selectFrom('waiver_signatures').selectAll().executeTakeFirstOrThrow()
    expect(signing).toEqual({
      document_id: documentId,
      waiver_text_id: 1,
      first_name: 'Zoë',
      last_name: 'Łukasz',
      birthday: '1985-08-17',
      email: 'alex@example.com',
      telephone: '555-0100',
      guardian_name: '',
      signed_at: START,
      staff_user_id: staff.members.id,
    })
  })

  test('a version without validity: the waiver never expires', async () => {
    await writeText({ valid_for_days: null })
    const res = await sign(adult())
    expect(res.body.document.expiration_date).toBe(null)
    expect((await storedPdf(res.body.customer_id, res.body.document.id)).text).toContain(
      'Valid through: does not expire',
    )
  })

  test('a customer known by name (in any case) and birthday signs on their own record', async () => {
    await writeText()
    const known = await makeCustomer(t.db, {
      first_name: 'Alex',
      last_name: 'Honnold',
      birthday: '1985-08-17',
    })
    await makeCustomer(t.db, { first_name: 'Alex', last_name: 'Honnold', birthday: '1986-08-17' })
    const res = await sign(adult({ first_name: 'ALEX', last_name: 'honnold' }))
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({
      customer_id: known.id,
      customer_first_name: 'Alex',
      customer_last_name: 'Honnold',
      customer_created: false,
    })
    expect(await countRows(t.db, 'customers')).toBe(2)
    // The phone and email the record lacked are filled in.
    const record = await t.request('GET', `/api/customers/${known.id}/`, { token: t.seed.staffToken })
    expect(record.body).toMatchObject({
      email: 'alex@example.com',
      telephone: '555-0100',
      active_waiver_exists: true,
    })
  })

  test('a member the door held for "No waiver" signs on the tablet, and the door lets them in', async () => {
    await writeText()
    const member = await makeDoorCustomer(t.db, 'LYNN1', { waiver: false })
    await makeMembershipFor(t.db, member.id)
    const scan = () => t.request('POST', barcodePath('LYNN1'), { token: t.seed.staffToken })
    const held = await scan()
    expect({ status: held.status, alerts: held.body.alerts }).toEqual({ status: 400, alerts: ['No waiver'] })
    const signed = await sign(
      adult({ first_name: member.first_name, last_name: member.last_name, birthday: member.birthday }),
    )
    expect(signed.body.customer_id).toBe(member.id)
    const admitted = await scan()
    expect({ status: admitted.status, method: admitted.body.entry_method }).toEqual({
      status: 200,
      method: 'MEM',
    })
  })

  test('a customer who has contact details keeps them', async () => {
    await writeText()
    const known = await makeCustomer(t.db, {
      first_name: 'Alex',
      last_name: 'Honnold',
      birthday: '1985-08-17',
      email: 'old@example.com',
      telephone: '555-0199',
    })
    await sign(adult())
    const record = await t.request('GET', `/api/customers/${known.id}/`, { token: t.seed.staffToken })
    expect(record.body).toMatchObject({ email: 'old@example.com', telephone: '555-0199' })
  })

  test('of two namesakes, the one who checked in last', async () => {
    await writeText()
    const twin = { first_name: 'Liam', last_name: 'Ruiz', birthday: '1990-01-01' }
    const older = await makeCustomer(t.db, twin)
    const newer = await makeCustomer(t.db, twin)
    await makeCheckIn(t.db, { customer_id: older.id, gym_id: t.seed.gym.id, at: '2026-11-20T18:00:00.000Z' })
    await makeCheckIn(t.db, { customer_id: newer.id, gym_id: t.seed.gym.id, at: '2026-10-20T18:00:00.000Z' })
    const res = await sign(adult(twin))
    expect(res.body.customer_id).toBe(older.id)
  })

  test('a guardian signs for a minor: the PDF names both', async () => {
    await writeText()
    const res = await sign(
      adult({
        first_name: 'Ashima',
        last_name: 'Shiraishi',
        birthday: '2014-04-03',
        guardian_name: 'Hisatoshi Shiraishi',
      }),
    )
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({
      is_minor: true,
      guardian_name: 'Hisatoshi Shiraishi',
      customer_created: true,
    })
    const pdf = await storedPdf(res.body.customer_id, res.body.document.id)
    expect(pdf.text).toContain('Participant (under 18): Ashima Shiraishi')
    expect(pdf.text).toContain('Signed for the participant by their parent or guardian: Hisatoshi Shiraishi')
  })

  test('a long text runs over several pages, all of it in the PDF', async () => {
    const paragraphs = Array.from(
      { length: 60 },
      (_, i) => `Paragraph ${i + 1}. ${'The wall is high and the floor is hard. '.repeat(6)}`,
    )
    await writeText({ text: paragraphs.join('\n') })
    const res = await sign(adult())
    const pdf = await storedPdf(res.body.customer_id, res.body.document.id)
    expect(pdf.text).toContain('Paragraph 60.')
    expect(pdf.text).toContain('Name: Alex Honnold')
  })

  test('two tablets sign for the same new person at once: one customer, two waivers', async () => {
    await writeText()
    const [a, b] = await Promise.all([sign(adult()), sign(adult())])
    expect([a.status, b.status]).toEqual([201, 201])
    expect([a.body.customer_created, b.body.customer_created].sort()).toEqual([false, true])
    expect(a.body.customer_id).toBe(b.body.customer_id)
    expect(await written()).toEqual({ customers: 1, documents: 2, files: 2, signatures: 2 })
  })

  test('a new version written while a signing is in flight: the signing is refused or names the old one', async () => {
    await writeText()
    const [signed, written2] = await Promise.all([sign(adult()), writeText({ text: 'Version two.' })])
    expect(written2.status).toBe(201)
    if (signed.status === 201) expect(signed.body.waiver_text_version).toBe(1)
    else expect(signed.body.waiver_text_version[0]).toContain('version 2 is current')
  })
})
