import { describe, expect, test } from 'bun:test'
import { invalidEmail } from '../helpers/bodies.ts'
import { makeCustomer, storedCustomer } from '../helpers/customer-factories.ts'
import { countRows } from '../helpers/factories.ts'
import { useSeededApp } from '../helpers/seeded.ts'

/*
 * A JSON string may spell half of a UTF-16 surrogate pair (`"\ud800"`), which no UTF-8 text can hold:
 * stored, it would become U+FFFD. DRF's CharField refuses it with ProhibitSurrogateCharactersValidator;
 * so does every field here, at the field's own path, with nothing written. The bodies are sent as
 * raw text so that the escapes reach the server exactly as written.
 */

const t = useSeededApp()

const surrogate = (codePoint: string) => [`Surrogate characters are not allowed: U+${codePoint}.`]

describe('a lone surrogate in a JSON body', () => {
  test('a customer create is 400 on that field, with the other failing fields, and creates nothing', async () => {
    const res = await t.request('POST', '/api/customers/', {
      token: t.seed.adminToken,
      body: '{"first_name": "Lynn\\ud800x", "last_name": "\\udc00", "birthday": "1961-01-03", "email": "nope"}',
    })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({
      first_name: surrogate('D800'),
      last_name: surrogate('DC00'),
      email: invalidEmail,
    })
    expect(await countRows(t.db, 'customers')).toBe(0)
  })

  test('a pair in the wrong order is two lone halves; the first is named', async () => {
    const res = await t.request('POST', '/api/customers/', {
      token: t.seed.adminToken,
      body: '{"first_name": "\\ude00\\ud83d", "last_name": "Hill", "birthday": "1961-01-03"}',
    })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ first_name: surrogate('DE00') })
    expect(await countRows(t.db, 'customers')).toBe(0)
  })

  test('a whole pair spelled as two escapes is one character and is stored', async () => {
    const res = await t.request('POST', '/api/customers/', {
      token: t.seed.adminToken,
      body: '{"first_name": "Lynn \\ud83e\\uddd7", "last_name": "Hill", "birthday": "1961-01-03"}',
    })
    expect(res.status).toBe(201)
    expect(res.body.first_name).toBe('Lynn \u{1F9D7}')
  })

  test('a PATCH is 400 on that field and changes nothing', async () => {
    const customer = await makeCustomer(t.db)
    const res = await t.request('PATCH', `/api/customers/${customer.id}/`, {
      token: t.seed.adminToken,
      body: '{"last_name": "Hill", "address_city": "Boulder\\udbff"}',
    })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ address_city: surrogate('DBFF') })
    expect(await storedCustomer(t.db, customer.id)).toEqual(customer)
  })

  test("a sale line's description is 400 at that line, {} for the others, and records nothing", async () => {
    const res = await t.request('POST', '/api/invoices/', {
      token: t.seed.adminToken,
      body:
        '{"line_items": [' +
        '{"purchase_type": "GEN", "description": "Chalk", "unit_price": "2.00", "revenue_account_code": "4300"}, ' +
        '{"purchase_type": "GEN", "description": "Tape\\udfff", "unit_price": "1.00", "revenue_account_code": "4300"}' +
        '], "payments": [{"payment_type": "OFF", "amount": "3.00"}]}',
    })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ line_items: [{}, { description: surrogate('DFFF') }] })
    expect(await countRows(t.db, 'invoices')).toBe(0)
    expect(await countRows(t.db, 'payments')).toBe(0)
  })

  test('a list of text is 400 on the list', async () => {
    const res = await t.request('POST', '/api/invoices/', {
      token: t.seed.adminToken,
      body:
        '{"discount_codes": ["SPRING\\ud800"], "line_items": ' +
        '[{"purchase_type": "GEN", "description": "Chalk", "unit_price": "2.00", "revenue_account_code": "4300"}]}',
    })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ discount_codes: surrogate('D800') })
    expect(await countRows(t.db, 'invoices')).toBe(0)
  })

  test('text inside an object field (an add-on’s account code per location) is 400 on that field', async () => {
    const res = await t.request('POST', '/api/add-ons/', {
      token: t.seed.adminToken,
      body: `{"name": "Locker", "revenue_account_codes": {"${t.seed.gym.id}": "4\\ud80000"}}`,
    })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ revenue_account_codes: surrogate('D800') })
    expect(await countRows(t.db, 'add_ons')).toBe(0)
  })

  test('a login is refused on the field like any other', async () => {
    const res = await t.request('POST', '/api/get-token/', {
      body: '{"username": "admin@gym.example", "password": "\\ud800"}',
    })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ password: surrogate('D800') })
  })
})
