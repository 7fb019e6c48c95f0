import type { RelationCode } from '../db/schema.ts'
import { choices, type Choices } from '../lib/choices.ts'

/** What the related customer is to the base customer, and its name (reference 2.x, relation options). */
export const RELATION_CODES: Choices<RelationCode> = choices({
  SPO: 'Spouse',
  PRT: 'Partner',
  PRE: 'Parent',
  CHI: 'Child',
  GUA: 'Guardian',
  WAR: 'Ward',
  SIB: 'Sibling',
  OTH: 'Other',
} satisfies Record<RelationCode, string>)

/**
 * The code the reverse relation gets: if B is A's child, A is B's parent. A code
 * describes the related customer relative to the base customer.
 */
export const MIRRORED_RELATION: Record<RelationCode, RelationCode> = {
  SPO: 'SPO',
  PRT: 'PRT',
  PRE: 'CHI',
  CHI: 'PRE',
  GUA: 'WAR',
  WAR: 'GUA',
  SIB: 'SIB',
  OTH: 'OTH',
}
