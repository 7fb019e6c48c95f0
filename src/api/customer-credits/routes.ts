import { changeCredit, createCredit } from './rules.ts'
import type { Deps } from '../../deps.ts'
import { customerRecordRoutes } from '../customer-records/collection.ts'
import { getCredit, listCredits } from './queries.ts'
import { CreditOut, CreditWrite } from './schema.ts'
import { serializeCredit } from './serializer.ts'

const AMOUNT_RULES = [
  '`amount_total` is above 0 with at most 2 decimal places (`Ensure that there are no more than 2',
  'decimal places.`) and under 100000000 (`Ensure that there are no more than 8 digits before the',
  'decimal point.`).',
].join(' ')

/** /api/customers/<customer_id>/credits/. No DELETE: set is_removed instead. */
export const customerCreditRoutes = (deps: Deps) =>
  customerRecordRoutes(deps, {
    name: 'credits',
    noun: 'customer credit',
    descriptions: {
      list: 'Removed ones (`is_removed`) are listed too.',
      create: AMOUNT_RULES,
      replace: `${AMOUNT_RULES} \`amount_total\` cannot change (\`This field cannot be changed.\`): send it unchanged.`,
      update: '`amount_total` cannot change (`This field cannot be changed.`).',
    },
    output: CreditOut,
    list: listCredits,
    get: getCredit,
    serialize: serializeCredit,
    create: { body: CreditWrite, run: createCredit },
    replace: { body: CreditWrite, run: changeCredit },
  })
