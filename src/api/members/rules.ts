import type { MembersReportRequest } from '../../core/reports/members-report.ts'
import type { MembershipStatus } from '../../db/schema.ts'
import type { Deps } from '../../deps.ts'
import { STATUS_TOKENS } from '../../domain/membership-status.ts'
import { FieldErrorCollector, messages } from '../../http/errors.ts'
import { readFilters } from '../../http/filters.ts'
import { membershipTypeExists } from '../membership-types/queries.ts'
import { MEMBER_FILTERS } from './schema.ts'

const DEFAULT_STATUSES: readonly MembershipStatus[] = Object.values(STATUS_TOKENS).flat()

/** django's ModelChoiceField wording (it does not name the value). */
const unknownMembershipType = 'Select a valid choice. That choice is not one of the available choices.'

const isToken = (token: string): token is keyof typeof STATUS_TOKENS => Object.hasOwn(STATUS_TOKENS, token)

/**
 * Reads the report's filters as django-filter would: every bad parameter at once (an unknown
 * membership type among them), in the filter form's order, as one 400. The membership type is
 * looked up through `deps.reader`, as the report itself is read.
 */
export async function readMembersQuery(
  deps: Pick<Deps, 'reader'>,
  query: Record<string, string | undefined>,
): Promise<MembersReportRequest> {
  const { values, errors: parseErrors } = readFilters(MEMBER_FILTERS, query)
  const errors = new FieldErrorCollector(parseErrors, Object.keys(MEMBER_FILTERS))

  let statuses = DEFAULT_STATUSES
  const tokens = (values.status_in ?? '')
    .split(',')
    .map((token) => token.trim())
    .filter((token) => token !== '')
  if (tokens.length > 0) {
    // Like MultipleChoiceField, name the first value that is not a choice.
    const unknown = tokens.find((token) => !isToken(token))
    if (unknown !== undefined) errors.add('status_in', messages.filterChoice(unknown))
    else
      statuses = [...new Set(tokens.flatMap((token) => STATUS_TOKENS[token as keyof typeof STATUS_TOKENS]))]
  }

  const typeId = values.membership_id
  if (typeId !== undefined && !(await membershipTypeExists(deps.reader, typeId)))
    errors.add('membership_id', unknownMembershipType)
  errors.throwIfAny()

  return {
    filters: {
      statuses,
      membership_type_id: typeId,
      purchase_type: values.purchase_type,
      is_group: values.is_group,
      is_youth_programming: values.is_youth_programming,
      add_on_name: values.add_on_name,
      home_location_id: values.home_location_id,
      start_date_min: values.start_date_min,
      start_date_max: values.start_date_max,
      // The reference: "true: has a saved payment method; any other value: without".
      has_payment_method:
        values.has_payment_method === undefined
          ? undefined
          : values.has_payment_method.trim().toLowerCase() === 'true',
    },
    includeBillingInfo: values.include_billing_info ?? false,
  }
}
