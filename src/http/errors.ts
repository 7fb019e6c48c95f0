import type { StorageFailure } from '../db/storage-failure.ts'

/**
 * The API's errors, shaped as Django REST Framework shapes them. Code that
 * wants to refuse a request throws one of these; the error handler turns it into the response.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
    readonly headers: Record<string, string> = {},
  ) {
    super(typeof body === 'object' && body && 'detail' in body ? String(body.detail) : `HTTP ${status}`)
  }
}

/** Field errors: `{"field": ["message", ...]}`; object-level ones go under `non_field_errors`. */
export type FieldErrors = Record<string, string[]>

export class ValidationError extends ApiError {
  constructor(readonly fields: FieldErrors) {
    super(400, fields)
  }

  static field(field: string, message: string): ValidationError {
    return new ValidationError({ [field]: [message] })
  }
}

/**
 * Collects failures across fields so one response lists every failing field, as DRF does, then
 * throws them together.
 */
export class FieldErrorCollector {
  private readonly errors: FieldErrors = {}

  /** `order`: the body's field names, so the response lists fields as the serializer declares them. */
  constructor(
    initial: FieldErrors = {},
    private readonly order: readonly string[] = [],
  ) {
    for (const [field, list] of Object.entries(initial)) this.errors[field] = [...list]
  }

  add(field: string, message: string): void {
    ;(this.errors[field] ??= []).push(message)
  }

  has(field: string): boolean {
    return field in this.errors
  }

  /** Every failing field so far, in the body's order; {} when none failed. */
  collected(): FieldErrors {
    const rank = (field: string) => {
      const i = this.order.indexOf(field)
      return i === -1 ? this.order.length : i
    }
    const sorted = Object.keys(this.errors).sort((a, b) => rank(a) - rank(b))
    return Object.fromEntries(sorted.map((field) => [field, this.errors[field]!]))
  }

  throwIfAny(): void {
    const fields = this.collected()
    if (Object.keys(fields).length > 0) throw new ValidationError(fields)
  }
}

export const notAuthenticated = () =>
  new ApiError(
    401,
    { detail: 'Authentication credentials were not provided.' },
    { 'WWW-Authenticate': 'Token' },
  )

export const invalidToken = () =>
  new ApiError(401, { detail: 'Invalid token.' }, { 'WWW-Authenticate': 'Token' })

export const permissionDenied = () =>
  new ApiError(403, { detail: 'You do not have permission to perform this action.' })

export const notFound = () => new ApiError(404, { detail: 'Not found.' })

export const invalidPage = () => new ApiError(404, { detail: 'Invalid page.' })

/** DRF's 405, with the `Allow` header it sends: the methods the path is served with. */
export const methodNotAllowed = (method: string, allow: readonly string[]) =>
  new ApiError(405, { detail: `Method "${method}" not allowed.` }, { Allow: allow.join(', ') })

export const throttled = (seconds: number) =>
  new ApiError(
    429,
    { detail: `Request was throttled. Expected available in ${seconds} second${seconds === 1 ? '' : 's'}.` },
    { 'Retry-After': String(seconds) },
  )

export const parseError = (reason: string, format: 'JSON' | 'Form' = 'JSON') =>
  new ApiError(400, { detail: `${format} parse error - ${reason}` })

export const unsupportedMediaType = (type: string) =>
  new ApiError(415, { detail: `Unsupported media type "${type}" in request.` })

export const payloadTooLarge = () => new ApiError(413, { detail: 'Request body is too large.' })

export const serverError = () => new ApiError(500, { detail: 'A server error occurred.' })

/** How long a client is asked to wait before retrying a write the disk would not take. */
export const STORAGE_RETRY_AFTER_SECONDS = 60

const storageFailureDetail: Record<StorageFailure, string> = {
  full: 'The database cannot be written: the disk is full. Nothing was saved; try again once space has been freed.',
  io: "The database could not be written to disk, so this change may not have been saved. Check the server's disk, then restart Belay.",
}

/** A write the disk would not take (db/storage-failure.ts): the server is up, its storage is not. */
export const storageUnavailable = (failure: StorageFailure) =>
  new ApiError(
    503,
    { detail: storageFailureDetail[failure] },
    { 'Retry-After': String(STORAGE_RETRY_AFTER_SECONDS) },
  )

/** DRF's standard messages, in one place so every collection words them alike. */
export const messages = {
  required: 'This field is required.',
  blank: 'This field may not be blank.',
  null: 'This field may not be null.',
  email: 'Enter a valid email address.',
  integer: 'A valid integer is required.',
  number: 'A valid number is required.',
  string: 'Not a valid string.',
  boolean: 'Must be a valid boolean.',
  /** Django's ProhibitNullCharactersValidator, on every CharField. */
  nullCharacters: 'Null characters are not allowed.',
  /** DRF's ProhibitSurrogateCharactersValidator, on every CharField: names the first lone half. */
  surrogateCharacters: (codePoint: number) =>
    `Surrogate characters are not allowed: U+${codePoint.toString(16).toUpperCase()}.`,
  /** Django's generic refusal; a query value that is not UTF-8 gets it. */
  invalidValue: 'Enter a valid value.',
  date: 'Date has wrong format. Use one of these formats instead: YYYY-MM-DD.',
  datetime:
    'Datetime has wrong format. Use one of these formats instead: YYYY-MM-DDThh:mm[:ss[.uuuuuu]][+HH:MM|-HH:MM|Z].',
  url: 'Enter a valid URL.',
  choice: (value: unknown) => `"${String(value)}" is not a valid choice.`,
  /** Django's MaxValueValidator and MinValueValidator: a number's limit, or a date's (YYYY-MM-DD). */
  max: (n: number | string) => `Ensure this value is less than or equal to ${n}.`,
  min: (n: number | string) => `Ensure this value is greater than or equal to ${n}.`,
  maxLength: (n: number) => `Ensure this field has no more than ${n} characters.`,
  minLength: (n: number) => `Ensure this field has at least ${n} characters.`,
  doesNotExist: (pk: unknown) => `Invalid pk "${String(pk)}" - object does not exist.`,
  cannotChange: 'This field cannot be changed.',
  unique: (model: string, field: string) => `${model} with this ${field} already exists.`,
  filterNumber: 'Enter a number.',
  /** A query filter's value outside its choices (Django's ChoiceField, which django-filter uses). */
  filterChoice: (value: string) => `Select a valid choice. ${value} is not one of the available choices.`,
  invalidBody: (got: string) => `Invalid data. Expected a dictionary, but got ${got}.`,
}
