import { Elysia, type AnyElysia } from 'elysia'
import { redeemGiftCode } from './rules.ts'
import type { Deps } from '../../deps.ts'
import { authenticated } from '../../http/auth.ts'
import { docs, named } from '../../http/docs.ts'
import { requires } from '../../http/permissions.ts'
import { checkBody } from '../../http/validation.ts'
import { GiftOut, GiftRedeem } from './schema.ts'
import { serializeGift } from './serializer.ts'

/** POST /api/gifts/redeem/: a gift sold on an invoice's GIF line, redeemed once (can_manage_members). */
export const giftRoutes = (deps: Deps): AnyElysia =>
  new Elysia()
    .use(authenticated(deps))
    .post(
      '/api/gifts/redeem/',
      async ({ body, user }) =>
        serializeGift(await redeemGiftCode(deps, checkBody(GiftRedeem, body), { user })),
      {
        ...requires('can_manage_members'),
        ...docs({
          tag: 'Gifts',
          summary: 'Redeem a gift code: the customer receives the gifted product, once',
          body: named('GiftRedeem', GiftRedeem),
          ok: { status: 200, schema: named('Gift', GiftOut) },
        }),
      },
    )
