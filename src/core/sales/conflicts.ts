/*
 * What posting a sale can find changed since it was checked, by another sale posted in between:
 * the sale is not recorded, and the caller says which part of it was overtaken.
 */

/**
 * A credit or voucher a payment draws on had too little left when the sale was posted (another
 * sale drew on it first).
 */
export class PaymentSourceSpent extends Error {
  constructor(readonly paymentIndex: number) {
    super(`payment ${paymentIndex} draws on a credit or voucher with too little left`)
  }
}

/**
 * A membership an MRE line renews was renewed or changed after the sale was checked (by another
 * sale, or another line of this one).
 */
export class MembershipChanged extends Error {
  constructor(readonly lineIndex: number) {
    super(`line ${lineIndex} renews a membership that changed after the sale was checked`)
  }
}

/**
 * The staff user already recorded a sale with this Idempotency-Key (another request with the same
 * key was posted first): nothing more is recorded, and the caller answers with that sale.
 */
export class IdempotencyKeyUsed extends Error {
  constructor(
    readonly invoiceId: number,
    readonly requestDigest: string | null,
  ) {
    super(`the Idempotency-Key already recorded invoice ${invoiceId}`)
  }
}

/**
 * An event a BOO line books could not take the booking when the sale was posted: full (another
 * booking took the last spot), booking closed, or its type no longer active. `reason` says which,
 * in the words a booking at /api/reservations/ is refused with.
 */
export class EventNotBookable extends Error {
  constructor(
    readonly lineIndex: number,
    readonly reason: string,
  ) {
    super(`line ${lineIndex} books an event that cannot take it: ${reason}`)
  }
}
