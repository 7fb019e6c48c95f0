import { duplicateWindowMinutes } from './answers.ts'

/*
 * The door endpoints' rules in words, as their operations' descriptions give them on the docs page.
 */

/** Guest check-in: whose guest, which passes, and the door's rules that still apply. */
export const guestCheckInRules = [
  'The host (`host_customer_id`) needs a membership that lets them in now and grants guest passes,',
  "with passes left this calendar month (the gym's); a customer cannot be their own guest (400 at",
  "`host_customer_id`). The guest's blocking alerts and the waiver rule apply as at the door, and so",
  `does its duplicate window: a guest who checked in at this location within the last ${duplicateWindowMinutes}`,
  'minutes, by any entry method, is refused (400 `non_field_errors`) and no pass is used, so a',
  'request sent twice records one check-in. A refusal records nothing. The check-in is `GUE`,',
  'described `Guest of <host first name> <host last name>`; 201 with its record.',
].join(' ')

/** Who is let in, in the order the door decides it: both scanning endpoints describe it. */
export const whoIsLetIn = [
  '**Who is let in**, in this order, the first rule that answers winning: an unknown barcode or a',
  'deactivated customer is `customer_not_found` (the barcode is looked up before the location); then',
  'alerts that prevent check-in, with the built-in "No waiver" when the organization requires a',
  "waiver and the customer has none usable today (good through its expiration day in the gym's",
  `zone); then a check-in at the same gym within the last ${duplicateWindowMinutes} minutes, bound included, is a`,
  'duplicate; then, at a gym with `combine_same_day_check_ins`, a second check-in the same local day',
  'answers with the first and records nothing; then the entry method: an event reservation happening',
  'now that includes entry (`EVE`, earliest start first), an active membership (`MEM`: `ACT`, `IPP`',
  "or `PPR`, the member not individually frozen, started, inside the type's access hours on the gym's",
  "wall clock; a recurring membership's `end_date` is its next bill date and does not stop entry, a",
  "prepaid one's does; lowest id first), an entry pass with entries left (`ENT`, the one expiring",
  'soonest, never-expiring last; one entry taken), else `no_entry_method`. The location is the',
  "body's `location_id`, else the organization's only gym, else the user's default gym.",
].join(' ')

/** What a check-in the database cannot save leaves behind: nothing. */
export const notRecordedRule = [
  'A check-in the database cannot save (a full or failing disk) is refused, never pretended: nothing',
  'of it (row, count, pass entry, webhook event) is kept.',
].join(' ')
