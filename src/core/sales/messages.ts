import { centsToDecimal } from '../../lib/money.ts'

/** What a sale's refusals say, wherever in the request they are found. */
export const saleMessages = {
  notForSale: 'Only an active product can be sold.',
  giftProduct: 'Give exactly one of entry_pass_id, voucher_pack_id and membership_id.',
  notRecurring: 'Only a recurring membership can be renewed.',
  notRenewable: 'Only an active membership, or one whose last renewal failed, can be renewed.',
  membershipChanged:
    'This membership was renewed or changed by another sale or line while this sale was recorded.',
  paidAhead: (nextBillDate: string) =>
    `This membership is already paid until ${nextBillDate}. To pay ahead, name the period: period_start "${nextBillDate}".`,
  periodPaid: (nextBillDate: string) =>
    `This period is already paid: the membership is paid until ${nextBillDate}.`,
  periodNotNext: (nextBillDate: string) =>
    `Periods are paid in order: this membership's next period starts on ${nextBillDate}.`,
  unknownDiscount: (code: string) => `No active discount has the code "${code}".`,
  repeatedDiscount: (code: string) => `The discount code "${code}" is given more than once.`,
  needsCustomer: 'Choose a customer: memberships, entry passes, bookings and vouchers are sold to someone.',
  removed: 'This has been removed.',
  expired: (date: string) => `This expired on ${date}.`,
  creditTooLow: (left: number) => `Only ${centsToDecimal(left)} remains on this credit.`,
  voucherUsedUp: 'This voucher has no uses left.',
  voucherAmount: 'A voucher payment has amount 0.',
  spent: 'Too little was left on this to pay so much when the sale was recorded.',
  overpaid: (paid: number, total: number) =>
    `The payments (${centsToDecimal(paid)}) come to more than the invoice total (${centsToDecimal(total)}).`,
}
