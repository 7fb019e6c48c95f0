import type { Organization } from '../../db/schema.ts'

export function serializeOrganization(org: Organization) {
  return {
    name: org.name,
    time_zone: org.time_zone,
    currency: org.currency,
    waiver_required: org.waiver_required === 1,
    milestones: JSON.parse(org.milestones) as number[],
    created_at: org.created_at,
    updated_at: org.updated_at,
  }
}
