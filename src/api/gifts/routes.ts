import { Elysia, type AnyElysia } from 'elysia'
import { redeemGiftCode } from './rules.ts'
import type { Deps } from '../../deps.ts'
import { authenticated } from '../../http/auth.ts'
import { docs, named } from '../../http/docs.ts'
import { requires, whoMay } from '../../http/permissions.ts'
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
          description: whoMay(
            'can_manage_members',
            [
              "`customer_id` receives what the gift's code grants (an entry pass, a voucher pack's",
              "voucher or a membership), dated in the organization's zone, and the gift is marked",
              'redeemed. An unknown code is `No gift has this code.`; one redeemed already, including by',
              'another desk at the same moment, `This gift has already been redeemed.`, both on `code`.',
              'Answers 200 with the gift as redeemed.',
            ].join(' '),
          ),
          body: named('GiftRedeem', GiftRedeem),
          ok: { status: 200, schema: named('Gift', GiftOut) },
        }),
      },
    )
