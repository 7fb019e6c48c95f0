/** Python's name for a JSON value's type, as DRF's messages name it. */
export function jsonTypeName(value: unknown): string {
  if (value === null) return 'NoneType'
  if (Array.isArray(value)) return 'list'
  if (typeof value === 'string') return 'str'
  if (typeof value === 'number') return Number.isInteger(value) ? 'int' : 'float'
  if (typeof value === 'boolean') return 'bool'
  if (typeof value === 'object') return 'dict'
  return typeof value
}
