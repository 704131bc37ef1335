import type { Transaction } from 'kysely';
import type { DB } from '../../../db/schema/index.js';
import { formatPrice } from '../../properties/index.js';
import * as facts from './event-facts.repository.js';
import type { PendingEvent } from './event-facts.repository.js';
import type { NotificationTextKey, TextParams } from '../delivery/notification-texts.js';
import type { Announcement } from '../delivery/notifier.service.js';

/** Finds the saved searches that listings entering `publish` match (saved-search-alerts.service.ts). */
export interface PublishedListingAlerts {
  matchPublished(trx: Transaction<DB>, listingIds: readonly number[], now: Date): Promise<Announcement[]>;
}

type Payload = Record<string, unknown>;
type Target = { type: 'property' | 'agent' | 'agency'; id: number };

const ABOUT: Record<Exclude<Target['type'], 'property'>, NotificationTextKey> = { agent: 'an_agent', agency: 'an_agency' };

/**
 * The notifications a batch of domain events makes (docs/api.md 4.3, 6, 7, 10): the listing's owner hears of its
 * approval, disapproval and expiry; a lead's and a review's recipients of them; a buyer of their membership
 * and payments; saved searches of listings entering `publish`. The facts the texts need (titles, names) are
 * read once per batch. An event whose listing or user is gone announces nothing.
 */
export async function announcementsOf(
  trx: Transaction<DB>,
  events: readonly PendingEvent[],
  alerts: PublishedListingAlerts,
  now: Date,
): Promise<Announcement[]> {
  const parsed = events.map((event) => ({ ...event, data: JSON.parse(event.payload) as Payload }));
  const listingIds = new Set<number>();
  const leadIds: number[] = [];
  const authorIds: number[] = [];
  for (const { type, data } of parsed) {
    if (typeof data.listing_id === 'number') listingIds.add(data.listing_id);
    if (data.target_type === 'property' && typeof data.target_id === 'number') listingIds.add(data.target_id);
    if (type === 'new_lead') leadIds.push(data.lead_id as number);
    if (type === 'new_review') authorIds.push(data.author_id as number);
  }
  const [listings, leadNames, authorNames] = await Promise.all([
    facts.findListingFacts(trx, [...listingIds]),
    facts.findLeadNames(trx, leadIds),
    facts.findDisplayNames(trx, authorIds),
  ]);

  const announcements: Announcement[] = [];
  const announce = (
    event: PendingEvent,
    userIds: readonly number[],
    type: Announcement['type'],
    texts: [NotificationTextKey, NotificationTextKey],
    params: TextParams,
    data: Payload,
    skip?: Announcement['skip'],
  ) => {
    for (const userId of userIds) {
      announcements.push({
        userId,
        type,
        source: `event:${event.id}`,
        text: { title: texts[0], message: texts[1], params },
        data,
        ...(skip ? { skip } : {}),
      });
    }
  };
  const about = (target: Target): TextParams['about'] =>
    target.type === 'property' ? `“${listings.get(target.id)?.title ?? ''}”` : { text: ABOUT[target.type] };
  const targetData = (target: Target): Payload => ({ [`${target.type === 'property' ? 'property' : target.type}_id`]: target.id });

  const published: number[] = [];
  for (const event of parsed) {
    const { data } = event;
    const listing = typeof data.listing_id === 'number' ? listings.get(data.listing_id) : undefined;
    const owner = listing?.authorId != null ? [listing.authorId] : [];
    const listingData = { property_id: data.listing_id };
    switch (event.type) {
      case 'listing_published':
        if (listing) published.push(data.listing_id as number);
        break;
      case 'property_approved':
        announce(
          event,
          owner,
          'property_approved',
          ['property_approved_title', 'property_approved_message'],
          { title: listing?.title ?? '' },
          listingData,
        );
        break;
      case 'property_disapproved': {
        const reason = typeof data.reason === 'string' ? data.reason : '';
        const message = reason ? 'property_disapproved_reason_message' : 'property_disapproved_message';
        announce(
          event,
          owner,
          'property_disapproved',
          ['property_disapproved_title', message],
          { title: listing?.title ?? '', reason },
          { ...listingData, reason },
        );
        break;
      }
      case 'property_expired':
        announce(
          event,
          owner,
          'property_expired',
          ['property_expired_title', 'property_expired_message'],
          { title: listing?.title ?? '' },
          listingData,
        );
        break;
      case 'new_lead': {
        const target = { type: data.target_type, id: data.target_id } as Target;
        // The lead itself was e-mailed to its recipients (docs/api.md 6.3): the notification adds the app and push.
        announce(
          event,
          data.recipient_user_ids as number[],
          'new_lead',
          ['new_lead_title', 'new_lead_message'],
          { name: leadNames.get(data.lead_id as number) ?? '', about: about(target) },
          { lead_id: data.lead_id, ...targetData(target) },
          ['email'],
        );
        break;
      }
      case 'new_review': {
        const target = { type: data.target_type, id: data.target_id } as Target;
        announce(
          event,
          data.recipient_user_ids as number[],
          'new_review',
          ['new_review_title', 'new_review_message'],
          { author: authorNames.get(data.author_id as number) ?? '', about: about(target), rating: data.rating as number },
          { review_id: data.review_id, rating: data.rating, ...targetData(target) },
        );
        break;
      }
      case 'membership_activated':
        announce(
          event,
          [data.user_id as number],
          'membership_activated',
          ['membership_activated_title', 'membership_activated_message'],
          { package: String(data.package_title ?? '') },
          { membership_id: data.membership_id, package_id: data.package_id, invoice_id: data.invoice_id },
        );
        break;
      case 'membership_expiring':
        announce(
          event,
          [data.user_id as number],
          'membership_expiring',
          ['membership_expiring_title', data.auto_renew ? 'membership_renewing_message' : 'membership_expiring_message'],
          { date: String(data.expires_at ?? '').slice(0, 10) },
          { membership_id: data.membership_id, package_id: data.package_id, expires_at: data.expires_at },
        );
        break;
      case 'membership_expired':
        announce(
          event,
          [data.user_id as number],
          'membership_expired',
          ['membership_expired_title', 'membership_expired_message'],
          { count: Number(data.listings_expired ?? 0) },
          { membership_id: data.membership_id, package_id: data.package_id },
        );
        break;
      case 'payment_received':
        announce(
          event,
          [data.user_id as number],
          'payment_received',
          ['payment_received_title', 'payment_received_message'],
          { amount: formatPrice(data.total as number, data.currency as string, '', ''), number: String(data.invoice_number) },
          { invoice_id: data.invoice_id },
        );
        break;
      default:
        break;
    }
  }
  announcements.push(...(await alerts.matchPublished(trx, published, now)));
  return announcements;
}
