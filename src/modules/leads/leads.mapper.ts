import { toApiTimestamp } from '../../lib/time.js';
import type { LeadRow } from './leads.repository.js';
import type { LeadRecord, LeadUserType } from './leads.schemas.js';

/** The listing a lead names, as the listing records show it now. */
export interface LeadProperty {
  id: number;
  title: string;
  url: string;
}

/** The lead record (docs/api.md 6.3); `property` is the listing of a listing lead when it still exists. */
export function toLead(row: LeadRow, property: LeadProperty | undefined): LeadRecord {
  const targetId = { property: row.property_id, agent: row.agent_id, agency: row.agency_id }[row.target_type];
  return {
    id: row.id,
    target_type: row.target_type,
    target_id: targetId,
    property: property ? { id: property.id, title: property.title, url: property.url } : null,
    agent_id: row.agent_id,
    agency_id: row.agency_id,
    name: row.name,
    email: row.email,
    phone: row.phone,
    message: row.message,
    user_type: row.user_type as LeadUserType,
    created_at: toApiTimestamp(row.created_at),
  };
}
