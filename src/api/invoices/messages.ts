/** What the sale's form and its Idempotency-Key header are refused with (core/sales words the rest). */
export const invoiceMessages = {
  emptyList: 'This list may not be empty.',
  idempotencyKeyReused: 'This Idempotency-Key was already used for a different sale.',
  idempotencyKeyInvalid: 'An Idempotency-Key is 1 to 255 visible ASCII characters.',
}
