import { changeVoucherPack, createVoucherPack } from './rules.ts'
import type { Deps } from '../../deps.ts'
import { PRODUCT_STATUSES } from '../../domain/products.ts'
import { collectionRoutes } from '../../http/crud.ts'
import { defineFilters } from '../../http/filters.ts'
import { getVoucherPack, listVoucherPacks } from './queries.ts'
import { VoucherPackOut, VoucherPackWrite } from './schema.ts'
import { serializeVoucherPack } from './serializer.ts'

/**
 * /api/voucher-packs/: a number of events of one event type sold together; selling one issues the
 * customer an event voucher. Any staff user reads them; admins write; no DELETE (retire instead).
 */
export const voucherPackRoutes = (deps: Deps) =>
  collectionRoutes(deps, {
    path: '/api/voucher-packs',
    tag: 'Voucher packs',
    noun: 'voucher pack',
    read: 'staff',
    write: 'admin',
    descriptions: {
      list: 'Ordered by name, then id. `status` is exact.',
      create: '`event_type_id` must name an event type, and `tax_rate_id` a tax rate.',
    },
    filters: defineFilters({
      status: { kind: 'choice', choices: PRODUCT_STATUSES, description: 'DRA, ACT or RET' },
      event_type_id: 'id',
    }),
    output: VoucherPackOut,
    list: ({ deps }, filters) => listVoucherPacks(deps.db, filters),
    get: ({ deps }, id) => getVoucherPack(deps.db, id),
    serialize: serializeVoucherPack,
    create: { body: VoucherPackWrite, run: ({ deps }, body) => createVoucherPack(deps, body) },
    replace: {
      body: VoucherPackWrite,
      run: ({ deps }, row, body) => changeVoucherPack(deps, row, body),
    },
  })
