import type { Kysely } from 'kysely';
import type { Mailer } from '../../../adapters/mail/mailer.js';
import { type DB, type OutboxRow, NOTIFICATION_TYPES } from '../../../db/schema/index.js';
import { supportedLanguage } from '../../../i18n/index.js';
import {
  type MailListing,
  MAX_DIGEST_LISTINGS,
  listingsOfData,
  type NotificationMailLinks,
  renderNotificationMail,
  unsubscribeHeaders,
  unsubscribeUrl,
} from './notification-mail.js';
import { preferencesOf } from './notification-preferences.js';
import { findMailListings, findMailRecipient, findPreferenceRows } from '../notifications.repository.js';
import type { DeliveryPayload } from './notifier.service.js';
import type { UnsubscribeTokens } from '../unsubscribe/unsubscribe-tokens.service.js';
import { PUBLIC_STATES, listingUrl } from '../../properties/index.js';
import type { ChannelSender } from '../../../db/outbox.js';

export interface NotificationEmailOptions {
  /** `<PUBLIC_URL><API_PREFIX>/realty-api/v1`: where the unsubscribe link points. */
  apiBaseUrl: string;
  /** LISTING_URL_TEMPLATE (config.listings.urlTemplate): the listings' links, as their records' `url`. */
  listingUrlTemplate: string;
  tokens: UnsubscribeTokens;
}

/** What the outbox row keeps once the message is done: who and what kind, never the text or the links. */
type NotificationEmailReceipt = { to: string; subject: string; type: string } | { skipped: 'recipient deleted' | 'unsubscribed' };

/** A digest names its first listings; ids past this many are counted, not looked up. */
const MAX_LOOKUP = 500;

/**
 * Sends `notification_email` messages (notifier.service.ts EMAIL_CHANNEL). The recipient is read when the message is
 * sent, not when it was queued: a user deleted meanwhile gets nothing, a user who turned this type of e-mail
 * off meanwhile (the unsubscribe link of an earlier mail) gets nothing, and an address or name changed
 * meanwhile is used. Neither is an error: the message is done, and the row says why it was skipped.
 */
export function notificationEmailSender(db: Kysely<DB>, mailer: Mailer, options: NotificationEmailOptions): ChannelSender {
  return async (payload: unknown, message: OutboxRow): Promise<NotificationEmailReceipt> => {
    const delivery = payload as DeliveryPayload;
    if (!NOTIFICATION_TYPES.includes(delivery.type)) throw new Error(`unknown notification type ${String(delivery.type)}`);
    const [user, preferenceRows] = await Promise.all([findMailRecipient(db, delivery.user_id), findPreferenceRows(db, [delivery.user_id])]);
    if (!user) return { skipped: 'recipient deleted' };
    if (!preferencesOf(preferenceRows)[delivery.type].email) return { skipped: 'unsubscribed' };

    const url = unsubscribeUrl(options.apiBaseUrl, options.tokens.sign(user.id, delivery.type));
    const links: NotificationMailLinks = {
      ...(await listingLinks(db, delivery, user.id, options.listingUrlTemplate)),
      unsubscribeUrl: url,
    };
    const mail = renderNotificationMail(
      delivery,
      { displayName: user.display_name, language: supportedLanguage(user.language) ?? 'en' },
      links,
    );
    await mailer.send({
      to: user.email,
      subject: mail.subject,
      text: mail.text,
      html: mail.html,
      idempotencyKey: message.idempotency_key,
      headers: unsubscribeHeaders(url),
    });
    return { to: user.email, subject: mail.subject, type: delivery.type };
  };
}

/**
 * The listing a notification is about, when the recipient can see it (published or sold, or their own), and
 * a digest's published listings in the order given: one query for both.
 */
async function listingLinks(
  db: Kysely<DB>,
  delivery: DeliveryPayload,
  recipientId: number,
  template: string,
): Promise<Pick<NotificationMailLinks, 'listing' | 'digest'>> {
  const { listingId, digestIds } = listingsOfData(delivery.data ?? {});
  const looked = digestIds.slice(0, MAX_LOOKUP);
  const ids = [...new Set([...(listingId === undefined ? [] : [listingId]), ...looked])];
  if (ids.length === 0) return {};
  const rows = await findMailListings(db, ids);
  const byId = new Map(rows.map((row) => [row.id, row]));
  const toLink = (row: (typeof rows)[number]): MailListing => ({ title: row.title, url: listingUrl(template, row) });
  const links: Pick<NotificationMailLinks, 'listing' | 'digest'> = {};
  const own = listingId === undefined ? undefined : byId.get(listingId);
  if (own && (PUBLIC_STATES.includes(own.status) || own.author_id === recipientId)) links.listing = toLink(own);
  if (digestIds.length > 0) {
    const visible = looked.flatMap((id) => {
      const row = byId.get(id);
      return row && PUBLIC_STATES.includes(row.status) ? [row] : [];
    });
    links.digest = {
      listings: visible.slice(0, MAX_DIGEST_LISTINGS).map(toLink),
      more: Math.max(0, visible.length - MAX_DIGEST_LISTINGS) + (digestIds.length - looked.length),
    };
  }
  return links;
}
