/**
 * The error bodies, field messages and list envelopes the endpoint tests expect, in DRF's (and
 * Django's) wording as DRF words them. Compare whole bodies with `toEqual`. A
 * wording here is the contract: it changes only when the contract does, never to make a test pass.
 */

// Error bodies.

/** 401 with `WWW-Authenticate: Token`: no `Authorization` header, or a malformed one. */
export const notProvided = { detail: 'Authentication credentials were not provided.' }
/** 401 with `WWW-Authenticate: Token`: an unknown or expired token, or an inactive user's. */
export const invalidToken = { detail: 'Invalid token.' }
export const forbidden = { detail: 'You do not have permission to perform this action.' }
export const notFound = { detail: 'Not found.' }
export const methodNotAllowed = (method: string) => ({ detail: `Method "${method}" not allowed.` })
/** 404: a page past the end, or a `page` that is not a page number. */
export const invalidPage = { detail: 'Invalid page.' }
export const unsupportedMediaType = (contentType: string) => ({
  detail: `Unsupported media type "${contentType}" in request.`,
})
export const serverError = { detail: 'A server error occurred.' }
/** POST /api/get-token/ with a wrong password, an unknown or inactive user, or one without a password. */
export const badCredentials = { non_field_errors: ['Unable to log in with provided credentials.'] }

// Field messages, each as the whole error list of one field: `{ name: blank }`.

export const required = ['This field is required.']
export const blank = ['This field may not be blank.']
export const notNull = ['This field may not be null.']
export const invalidEmail = ['Enter a valid email address.']
export const invalidInteger = ['A valid integer is required.']
export const invalidNumber = ['A valid number is required.']
export const invalidDate = ['Date has wrong format. Use one of these formats instead: YYYY-MM-DD.']
export const invalidBoolean = ['Must be a valid boolean.']
export const invalidChoice = (value: string) => [`"${value}" is not a valid choice.`]
export const invalidTimeZone = ['A valid timezone is required.']
export const maxValue = (n: number) => [`Ensure this value is less than or equal to ${n}.`]
export const minValue = (n: number) => [`Ensure this value is greater than or equal to ${n}.`]
export const maxLength = (n: number) => [`Ensure this field has no more than ${n} characters.`]
export const maxDecimalPlaces = (n: number) => [`Ensure that there are no more than ${n} decimal places.`]
export const doesNotExist = (pk: number | string) => [`Invalid pk "${pk}" - object does not exist.`]
/** A field that cannot change after creation, sent with a different value. */
export const cannotChange = ['This field cannot be changed.']
export const passwordTooShort = ['This password is too short. It must contain at least 8 characters.']
/** A number filter (`?gym_id=abc`) whose value is not a number. */
export const notANumber = ['Enter a number.']

// List envelopes.

export const emptyPage = { count: 0, next: null, previous: null, results: [] }
/** A list that fits on one page: no next, no previous. */
export const onePage = (results: unknown[]) => ({
  count: results.length,
  next: null,
  previous: null,
  results,
})
