import type { Transaction } from 'kysely';
import type { DB } from '../../db/schema/index.js';
import { AppError } from '../../lib/errors.js';
import { plainText } from '../../lib/text.js';
import type { SiteSettingsService, SubmissionField } from '../site-settings/index.js';
import { findSubmissionFacts, type SubmissionFacts } from './properties.repository.js';

/** Where the fields a submission needs are set: the site settings (`submission_fields`, docs/api.md 14). */
export type SubmissionRules = Pick<SiteSettingsService, 'submissionFields'>;

/** Whether the listing as stored has each field a submission may require. */
const HAS: Readonly<Record<SubmissionField, (facts: SubmissionFacts) => boolean>> = {
  description: (facts) => plainText(facts.description).trim() !== '',
  price: (facts) => facts.price !== null,
  type_ids: (facts) => Number(facts.types) > 0,
  status_ids: (facts) => Number(facts.statuses) > 0,
  city: (facts) => Number(facts.cities) > 0,
  address: (facts) => facts.address.trim() !== '',
  latitude: (facts) => facts.latitude !== null && facts.longitude !== null,
  media_ids: (facts) => Number(facts.images) > 0,
  bedrooms: (facts) => facts.bedrooms !== null,
  bathrooms: (facts) => facts.bathrooms !== null,
  size: (facts) => facts.size !== null,
};

/**
 * A submission by a non-moderator (a create that is not a draft, a draft's `draft: false`, `submit_listing`)
 * checked against the administrator's required fields, on the listing as the submitting write left it in `trx`:
 * a 400 naming each field it lacks, which rolls the write back. Nothing is required by default.
 */
export async function assertSubmittable(trx: Transaction<DB>, listingId: number, required: readonly SubmissionField[]): Promise<void> {
  if (required.length === 0) return;
  const facts = await findSubmissionFacts(trx, listingId);
  const missing = required.filter((field) => !HAS[field](facts));
  if (missing.length > 0) {
    throw new AppError(
      'validation_failed',
      'validation_failed',
      missing.map((field) => ({ field, key: 'listing_rule_required_for_submission' })),
    );
  }
}
