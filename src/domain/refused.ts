/**
 * An engine's refusal of a request, field by field (`non_field_errors` for the whole), with nothing
 * written. Engines throw it from inside their transaction, so the refusal and the rollback are one;
 * the API's error handler answers it as DRF's 400 with `errors` as the body.
 */
export class Refused extends Error {
  constructor(readonly errors: Record<string, string[]>) {
    super(`refused: ${JSON.stringify(errors)}`)
  }
}
