import type { RelationCode } from '../db/schema.ts'

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
