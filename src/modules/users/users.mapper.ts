import type { FileStorage } from '../../adapters/storage/storage.js';
import { toApiTimestamp } from '../../lib/time.js';
import { avatarUrl } from '../media/index.js';
import type { ProfileCounts } from './profiles.repository.js';
import type { AccountRow } from '../accounts/index.js';
import type { PublicUserProfileRecord, UserProfileRecord } from './users.schemas.js';

const NO_COUNTS: ProfileCounts = { publishedListings: 0, favorites: 0 };

/** The full profile (docs/api.md 3.1); the Houzez shape has both counts as strings. */
export function toUserProfile(account: AccountRow, counts: ProfileCounts | undefined, storage: FileStorage): UserProfileRecord {
  const { publishedListings, favorites } = counts ?? NO_COUNTS;
  return {
    user_id: account.id,
    email: account.email,
    username: account.username,
    display_name: account.display_name,
    first_name: account.first_name,
    last_name: account.last_name,
    avatar_url: avatarUrl(account.avatar_sizes, storage),
    phone: account.phone,
    mobile: account.mobile,
    whatsapp: account.whatsapp,
    properties_count: String(publishedListings),
    favorites: String(favorites),
    role: account.role,
    bio: account.bio,
    website: account.website,
    language: account.language,
    registered_date: toApiTimestamp(account.created_at),
    agent_id: account.agent_id,
    agency_id: account.agency_id,
    status: account.status,
  };
}

/** What other users see: no e-mail address, phone numbers or favorites. */
export function toPublicUserProfile(account: AccountRow, counts: ProfileCounts | undefined, storage: FileStorage): PublicUserProfileRecord {
  return {
    user_id: account.id,
    display_name: account.display_name,
    avatar_url: avatarUrl(account.avatar_sizes, storage),
    role: account.role,
    agent_id: account.agent_id,
    agency_id: account.agency_id,
    registered_date: toApiTimestamp(account.created_at),
    properties_count: String((counts ?? NO_COUNTS).publishedListings),
  };
}
