import { describe, expect, test } from 'bun:test'
import { CsvUnclosedQuote, guessSeparator, readCsv } from '../../src/lib/csv-read.ts'

describe('readCsv', () => {
  test('records end in LF, CRLF or a lone CR; the last line break adds no record', () => {
    expect(readCsv('a,b\nc,d\n')).toEqual([
      ['a', 'b'],
      ['c', 'd'],
    ])
    expect(readCsv('a,b\r\nc,d\r\n')).toEqual([
      ['a', 'b'],
      ['c', 'd'],
    ])
    expect(readCsv('a,b\rc,d')).toEqual([
      ['a', 'b'],
      ['c', 'd'],
    ])
  })

  test('empty fields, a trailing separator, an empty line as one empty field', () => {
    expect(readCsv(',a,\n\nb')).toEqual([['', 'a', ''], [''], ['b']])
    expect(readCsv('a,')).toEqual([['a', '']])
    expect(readCsv('')).toEqual([])
  })

  test('quoted fields hold separators, line breaks and doubled quotes', () => {
    expect(readCsv('"a,b","line\r\nbreak","say ""hi""",""\nx')).toEqual([
      ['a,b', 'line\r\nbreak', 'say "hi"', ''],
      ['x'],
    ])
  })

  test('leniently: a quote inside an unquoted field is text, text after a closing quote is kept', () => {
    expect(readCsv('5\'10",O"Neil\n"ab"cd,e')).toEqual([
      ['5\'10"', 'O"Neil'],
      ['abcd', 'e'],
    ])
  })

  test('a byte order mark before the first field is dropped', () => {
    expect(readCsv('\uFEFFname,"x"')).toEqual([['name', 'x']])
  })

  test('a quoted field never closed names the record it opens in', () => {
    expect(() => readCsv('a\nb\n"c,d\ne')).toThrow(new CsvUnclosedQuote(3))
  })

  test('semicolons separate when the first line has more of them than commas outside quotes', () => {
    expect(guessSeparator('a;b;"c,d,e"\n1,2,3,4')).toBe(';')
    expect(guessSeparator('a,b;c')).toBe(',')
    expect(readCsv('Name;Preis\n"Müller; Anna";3,50\n')).toEqual([
      ['Name', 'Preis'],
      ['Müller; Anna', '3,50'],
    ])
  })
})
