import { describe, expect, test } from 'bun:test'
import { Type as t } from '@sinclair/typebox'
import { csvCell, csvColumns, csvHeader, csvLine } from '../../src/lib/csv-write.ts'

describe('a cell', () => {
  test.each([
    ['text as it is', 'Lynn', 'Lynn'],
    ['null is empty', null, ''],
    ['true', true, 'true'],
    ['false', false, 'false'],
    ['a number as JSON writes it', 0.1 + 0.2, '0.30000000000000004'],
    ['money as its decimal text', '12.50', '12.50'],
    ['a negative number is no formula', '-12.50', '-12.50'],
    ['a negative integer', -3, '-3'],
    ['a list is compact JSON, quoted for its commas', ['a', 'b'], '"[""a"",""b""]"'],
    ['an object keyed by data is compact JSON', { '4000': 1 }, '"{""4000"":1}"'],
    ['an empty list', [], '[]'],
    ['a comma is quoted', 'Hill, Lynn', '"Hill, Lynn"'],
    ['a quote is doubled', 'The "Nose"', '"The ""Nose"""'],
    ['a line feed is quoted', 'a\nb', '"a\nb"'],
    ['a CRLF is quoted', 'a\r\nb', '"a\r\nb"'],
    ['= is guarded', '=1+1', "'=1+1"],
    ['+ is guarded', '+1 303 555', "'+1 303 555"],
    ['- is guarded unless a number', '-cmd', "'-cmd"],
    ['@ is guarded', '@SUM(A1)', "'@SUM(A1)"],
    ['a tab is guarded', '\tx', "'\tx"],
    ['a carriage return is guarded, then quoted', '\rx', '"\'\rx"'],
    ['guarded, then quoted', '=HYPERLINK("x","y")', '"\'=HYPERLINK(""x"",""y"")"'],
    ['a formula character inside is left', 'a=b', 'a=b'],
  ])('%s', (_, value, cell) => {
    expect(csvCell(value)).toBe(cell)
  })
})

describe('the columns', () => {
  const schema = t.Object({
    id: t.Integer(),
    address: t.Object({ city: t.String(), postcode: t.String() }),
    codes: t.Record(t.String(), t.Number()),
    lines: t.Array(t.Object({ id: t.Integer() })),
    extra: t.Optional(t.String()),
  })

  test('an object with fields of its own is a column per field, dotted; records and lists are one', () => {
    expect(csvHeader(csvColumns(schema))).toBe('id,address.city,address.postcode,codes,lines,extra\r\n')
    expect(
      csvLine(csvColumns(schema), {
        id: 1,
        address: { city: 'Boulder, CO', postcode: '80302' },
        codes: { '4000': 0.5, '4100': 0.5 },
        lines: [{ id: 7 }],
        extra: '=x',
      }),
    ).toBe('1,"Boulder, CO",80302,"{""4000"":0.5,""4100"":0.5}","[{""id"":7}]",\'=x\r\n')
  })

  test('fields left out are not columns', () => {
    expect(csvHeader(csvColumns(schema, ['codes', 'extra']))).toBe(
      'id,address.city,address.postcode,lines\r\n',
    )
  })

  test('a missing nested object leaves its cells empty', () => {
    expect(csvLine(csvColumns(schema, ['codes', 'lines', 'extra']), { id: 2, address: null })).toBe('2,,\r\n')
  })
})
