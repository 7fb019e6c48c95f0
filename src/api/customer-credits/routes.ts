import { changeCredit, createCredit } from './rules.ts'
import type { Deps } from '../../deps.ts'
import { customerRecordRoutes } from '../customer-records/collection.ts'
import { getCredit, listCredits } from './queries.ts'
import { CreditOut, CreditWrite } from './schema.ts'
import { serializeCredit } from './serializer.ts'

/** /api/customers/<customer_id>/credits/. No DELETE: set is_removed instead. */
export const customerCreditRoutes = (deps: Deps) =>
  customerRecordRoutes(deps, {
    name: 'credits',
    noun: 'customer credit',
    output: CreditOut,
    list: listCredits,
    get: getCredit,
    serialize: serializeCredit,
    create: { body: CreditWrite, run: createCredit },
    replace: { body: CreditWrite, run: changeCredit },
  })
