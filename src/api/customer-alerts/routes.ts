import { changeAlert, createAlert } from './rules.ts'
import type { Deps } from '../../deps.ts'
import { collectionRoutes } from '../../http/crud.ts'
import { defineFilters } from '../../http/filters.ts'
import { customerParent } from '../customer-records/collection.ts'
import { getAlert, listAlerts } from './queries.ts'
import { AlertOut, AlertWrite } from './schema.ts'
import { serializeAlert } from './serializer.ts'

/** /api/customers/<customer_id>/alerts/, oldest first. No DELETE (405): set `is_active: false`. */
export const customerAlertRoutes = (deps: Deps) =>
  collectionRoutes(deps, {
    path: '/api/customers/:customer_id/alerts',
    parent: customerParent,
    tag: 'Customer alerts',
    noun: 'customer alert',
    read: 'staff',
    write: 'can_manage_members',
    descriptions: {
      list: [
        "The customer's alerts, oldest first (by id), retired ones included unless filtered by",
        '`is_active`; `prevents_check_in` selects the ones that stop check-in.',
      ].join(' '),
      create:
        '`color_hex` that is not 6 hex digits is `Enter a valid color: 6 hexadecimal digits, such as FF0000.`',
      replace: 'There is no DELETE: retire an alert with `is_active: false`.',
    },
    filters: defineFilters({ is_active: 'bool', prevents_check_in: 'bool' }),
    output: AlertOut,
    list: ({ deps, parentId }, filters) => listAlerts(deps.db, parentId, filters),
    get: ({ deps, parentId }, id) => getAlert(deps.db, parentId, id),
    serialize: serializeAlert,
    create: { body: AlertWrite, run: ({ deps, parentId }, body) => createAlert(deps, parentId, body) },
    replace: { body: AlertWrite, run: ({ deps }, row, body) => changeAlert(deps, row, body) },
  })
