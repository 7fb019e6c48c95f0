import { ValidationError, type FieldErrors } from '../http/errors.ts'

/**
 * Collects rule failures across fields so one response lists every failing field, as DRF does,
 * then throws them together.
 */
export class FieldErrorCollector {
  private errors: FieldErrors = {}

  add(field: string, message: string): void {
    ;(this.errors[field] ??= []).push(message)
  }

  throwIfAny(): void {
    if (Object.keys(this.errors).length > 0) throw new ValidationError(this.errors)
  }
}
