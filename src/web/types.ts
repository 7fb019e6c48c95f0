/**
 * The API's JSON as the desk reads it, named as the page names it: aliases over the types generated
 * from the OpenAPI document (api-schema.ts, `npx bun run build/web-api-types.ts`), so what the page
 * expects is what the API documents and its response checks hold it to. Nothing here is shared with
 * the server's code.
 */
import type { components } from './api-schema.ts'

type Schemas = components['schemas']

/**
 * A page of a collection. The document names one per collection (`PaginatedCustomerList`, ...), each
 * the same envelope around its records: this is that envelope around any of them.
 */
export type Page<T> = Omit<Schemas['PaginatedCustomerList'], 'results'> & { results: T[] }

export type Account = Schemas['MyAccount']

export type Gym = Schemas['Gym']

/** A customer's alert as a check-in's answer shows it. */
export type Alert = Schemas['DeskCheckIn']['customer_alerts'][number]

/** A reservation of the customer's that is on now, as a check-in's answer shows it. */
export type ReservationNow = Schemas['DeskCheckIn']['reservations'][number]

/** The door's refusals (its 400 and 404 to a scan), each with its own sound. */
export type RefusalCode =
  Schemas['BarcodeCheckInRefusal']['error'] | Schemas['BarcodeCheckInNotFound']['error']

export type CheckInRecord = Schemas['CheckIn']

/** One of a customer's check-ins, as their page lists them. */
export type CustomerCheckIn = Schemas['CheckIn']

export type Customer = Schemas['Customer']

/** A customer's record as their page shows it. */
export type CustomerRecord = Schemas['Customer']

/** A staff-made alert on a customer. */
export type CustomerAlert = Schemas['CustomerAlert']

export type CustomerMembership = Schemas['CustomerMembership']

export type CustomerEntryPass = Schemas['CustomerEntryPass']

export type Credit = Schemas['CustomerCredit']

/** A barcode the customer lost to another site's customer while the sites were apart. */
export type LostCard = Schemas['Customer']['site_conflicts'][number]

/** Whether this box is cut off from the other sites (the desk's banner). */
export type SiteLink = Schemas['SiteLink']

/** One event on the calendar (a class), with its spots and waitlist as read now. */
export type ClassEvent = Schemas['Event']

export type EventType = Schemas['EventType']

/** A question of an event type, asked when one of its events is booked. */
export type EventQuestion = Schemas['EventQuestion']

/** A customer's place at an event, with their answers. */
export type Reservation = Schemas['Reservation']

/** An answer as a reservation or a waitlist entry reads it back. */
export type Answer = Schemas['Reservation']['answers'][number]

export type WaitlistEntry = Schemas['WaitlistEntry']

/** A grade of a gym's scale for boulders or ropes, in rank order. */
export type Grade = Schemas['Grade']

/** Boulders (BOU) or ropes (ROP): a grade's discipline, and the halves of the Walls screen. */
export type GradeDiscipline = Schemas['GradeCreate']['discipline']

/** A wall of the gym, reset one at a time. */
export type Section = Schemas['Section']

/** A climb, up until it is stripped, then kept for the history. */
export type Climb = Schemas['Climb']

/** A climb's discipline as the API takes it: BOU, or a rope climb's TR, LEA or AUT. */
export type ClimbDiscipline = Schemas['ClimbCreate']['discipline']

/** The climbs up in one discipline: by grade against the targets, by section, by setter. */
export type ClimbStats = Schemas['ClimbStats']

/** Someone a climb may name as its setter (`/api/gyms/<id>/climbs/setters/`). */
export type SetterChoice = Schemas['SetterChoice']

/** A staff member who can act in PIN mode, as the PIN prompt offers them (`/api/users/pin-holders/`). */
export type PinHolder = Schemas['PinHolder']
