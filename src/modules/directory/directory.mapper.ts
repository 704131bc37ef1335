import type { FileStorage } from '../../adapters/storage/storage.js';
import { averageRating } from '../../lib/rating.js';
import { sizeUrl } from '../media/index.js';
import type { AgencyRow, AgentRow, AgentTermRow } from './directory.repository.js';
import { type AgencyRecord, type AgentRecord, SOCIAL_NETWORKS, type SocialRecord } from './directory.schemas.js';

/** Where the absolute URLs of directory records point (docs/api.md 0.4). */
export interface DirectoryUrls {
  publicUrl: string;
  storage: FileStorage;
}

/** An agent's `url` (docs/api.md 5.1): its page on the website. */
export const agentUrl = (publicUrl: string, slug: string) => `${publicUrl}/agent/${encodeURIComponent(slug)}`;

/** An agency's `url` (docs/api.md 5.1). */
export const agencyUrl = (publicUrl: string, slug: string) => `${publicUrl}/agency/${encodeURIComponent(slug)}`;

/** The agent record (docs/api.md 5.1) from its row, its terms and its published listings. */
export function toAgent(row: AgentRow, terms: readonly AgentTermRow[], propertiesCount: number, urls: DirectoryUrls): AgentRecord {
  const ofTaxonomy = (taxonomy: AgentTermRow['taxonomy']) =>
    terms.filter((term) => term.taxonomy === taxonomy).map((term) => ({ id: term.id, name: term.name, slug: term.slug }));
  return {
    id: row.id,
    user_id: row.user_id,
    name: row.name,
    slug: row.slug,
    url: agentUrl(urls.publicUrl, row.slug),
    position: row.position,
    company: row.company,
    bio: row.bio,
    ...contactOf(row),
    languages: JSON.parse(row.languages) as string[],
    service_areas: row.service_areas,
    specialties: row.specialties,
    picture_url: imageUrl(row.picture_key, row.picture_sizes, urls.storage),
    social: socialOf(row.social),
    categories: ofTaxonomy('agent_category'),
    cities: ofTaxonomy('agent_city'),
    agency:
      row.agency_id !== null && row.agency_name !== null && row.agency_slug !== null
        ? { id: row.agency_id, name: row.agency_name, slug: row.agency_slug }
        : null,
    properties_count: propertiesCount,
    rating: averageRating(row),
    reviews_count: Number(row.reviews_count),
    visible: row.visible === 1,
  };
}

/** The agency record (docs/api.md 5.1) from its row and its counts. */
export function toAgency(row: AgencyRow, agentsCount: number, propertiesCount: number, urls: DirectoryUrls): AgencyRecord {
  return {
    id: row.id,
    user_id: row.user_id,
    name: row.name,
    slug: row.slug,
    url: agencyUrl(urls.publicUrl, row.slug),
    description: row.description,
    ...contactOf(row),
    address: row.address,
    latitude: row.latitude === null ? null : Number(row.latitude),
    longitude: row.longitude === null ? null : Number(row.longitude),
    logo_url: imageUrl(row.logo_key, row.logo_sizes, urls.storage),
    social: socialOf(row.social),
    agents_count: agentsCount,
    properties_count: propertiesCount,
    rating: averageRating(row),
    reviews_count: Number(row.reviews_count),
  };
}

/** Every network present, null where none is stored: clients can rely on the keys. */
export function socialOf(json: string): SocialRecord {
  const stored = JSON.parse(json) as Partial<Record<string, unknown>>;
  const social = {} as SocialRecord;
  for (const network of SOCIAL_NETWORKS) {
    const value = stored[network];
    social[network] = typeof value === 'string' && value !== '' ? value : null;
  }
  return social;
}

/**
 * The average with one decimal, computed here from the integer sum and count: the two databases round
 * halves differently, JavaScript rounds the same everywhere.
 */
/** The contact lines agents and agencies share. */
function contactOf(row: AgentRow | AgencyRow) {
  const { email, phone, mobile, whatsapp, fax, website, license, tax_number } = row;
  return { email, phone, mobile, whatsapp, fax, website, license, tax_number };
}

/** A picture or logo is shown by its medium size, as avatars are; the original when it has none. */
function imageUrl(key: string | null, sizes: string | null, storage: FileStorage): string | null {
  if (key === null) return null;
  return sizeUrl(sizes, 'medium', storage) || storage.url(key);
}
