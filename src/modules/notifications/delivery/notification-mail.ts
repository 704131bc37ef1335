import type { Language } from '../../../i18n/index.js';
import { notificationMailText, notificationTypeLabel } from './notification-mail-texts.js';
import type { DeliveryPayload } from './notifier.service.js';

/** A digest e-mail names at most this many listings, then says how many more there are. */
export const MAX_DIGEST_LISTINGS = 20;

/** Who the e-mail is for, as read from the users row when it is sent. */
export interface MailRecipient {
  displayName: string;
  language: Language;
}

export interface MailListing {
  title: string;
  /** Absolute, as the listing's `url` in records (docs/api.md 12). */
  url: string;
}

/** The links of one e-mail, resolved by the sender when it sends. */
export interface NotificationMailLinks {
  /** The listing the notification is about (`data.property_id`), when it can be shown to the recipient. */
  listing?: MailListing;
  /** The listings of a digest (`data.property_ids`): at most MAX_DIGEST_LISTINGS, and how many more there are. */
  digest?: { listings: readonly MailListing[]; more: number };
  /** The unsubscribe link for this user and type (unsubscribe-tokens.service.ts). */
  unsubscribeUrl: string;
}

export interface NotificationMail {
  subject: string;
  text: string;
  html: string;
}

/** What a notification's data points at: one listing, or the listings of a digest (ids as given, deduplicated). */
export function listingsOfData(data: Record<string, unknown>): { listingId: number | undefined; digestIds: number[] } {
  const listingId = idOf(data.property_id);
  const digestIds = Array.isArray(data.property_ids)
    ? [...new Set(data.property_ids.map(idOf).filter((id): id is number => id !== undefined))]
    : [];
  return { listingId, digestIds };
}

/** The unsubscribe link: `<PUBLIC_URL><API_PREFIX>/realty-api/v1/notifications/unsubscribe?token=<token>`. */
export function unsubscribeUrl(apiBaseUrl: string, token: string): string {
  return `${apiBaseUrl}/notifications/unsubscribe?token=${encodeURIComponent(token)}`;
}

/** RFC 2369 and RFC 8058 headers: mail clients show an unsubscribe button that POSTs to the link. */
export function unsubscribeHeaders(url: string): Record<string, string> {
  return { 'List-Unsubscribe': `<${url}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' };
}

/**
 * A notification's e-mail in the recipient's language: the notification's title as the subject (on one line,
 * so no header can be split), a greeting, its message, a link to the listing or the digest's listings, and a
 * footer saying why the mail came with a link that turns this type of e-mail off. Every value is escaped in
 * the HTML part; Arabic is laid out right to left.
 */
export function renderNotificationMail(payload: DeliveryPayload, recipient: MailRecipient, links: NotificationMailLinks): NotificationMail {
  const language = recipient.language;
  const type = notificationTypeLabel(language, payload.type);
  const say = (key: Parameters<typeof notificationMailText>[1], params: Record<string, string | number> = {}) =>
    notificationMailText(language, key, params);
  const sayHtml = (key: Parameters<typeof notificationMailText>[1], params: Record<string, string | number> = {}) =>
    notificationMailText(language, key, params, escapeHtml);
  const subject = singleLine(payload.title);
  const message = payload.message.replace(/\r\n?/g, '\n').trim();

  const text: string[] = [say('greeting', { name: singleLine(recipient.displayName) }), '', message];
  const html: string[] = [
    `<h1 style="font-size:20px;margin:0 0 16px">${escapeHtml(subject)}</h1>`,
    `<p>${sayHtml('greeting', { name: singleLine(recipient.displayName) })}</p>`,
    `<p>${escapeHtml(message).replace(/\n/g, '<br>')}</p>`,
  ];
  if (links.listing) {
    text.push('', say('listing_link_text', { url: links.listing.url }));
    html.push(`<p><a href="${escapeHtml(links.listing.url)}">${sayHtml('listing_link')}</a></p>`);
  }
  if (links.digest && links.digest.listings.length > 0) {
    const { listings, more } = links.digest;
    text.push('', say('digest_heading'), ...listings.map((listing) => `- ${singleLine(listing.title)}\n  ${listing.url}`));
    html.push(
      `<p>${sayHtml('digest_heading')}</p>`,
      `<ul>${listings.map((listing) => `<li><a href="${escapeHtml(listing.url)}">${escapeHtml(singleLine(listing.title))}</a></li>`).join('')}</ul>`,
    );
    if (more > 0) {
      text.push(say('digest_more', { count: more }));
      html.push(`<p>${sayHtml('digest_more', { count: more })}</p>`);
    }
  }
  text.push('', '-- ', say('footer_reason', { type }), say('unsubscribe_text', { type, url: links.unsubscribeUrl }));
  html.push(
    '<hr style="border:0;border-top:1px solid #ddd;margin:24px 0 12px">',
    `<p style="font-size:12px;color:#666">${sayHtml('footer_reason', { type })}<br>` +
      `<a href="${escapeHtml(links.unsubscribeUrl)}">${sayHtml('unsubscribe_link', { type })}</a></p>`,
  );

  const dir = language === 'ar' ? 'rtl' : 'ltr';
  const document =
    `<!DOCTYPE html>\n<html lang="${language}" dir="${dir}">\n<head><meta charset="utf-8">` +
    `<meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(subject)}</title></head>\n` +
    `<body dir="${dir}" style="font-family:sans-serif;line-height:1.5;color:#222">\n${html.join('\n')}\n</body>\n</html>\n`;
  return { subject, text: `${text.join('\n')}\n`, html: document };
}

/** Text for HTML element content and double- or single-quoted attribute values. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => HTML_ENTITIES[c]!);
}

const HTML_ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Line breaks (including Unicode's) and other controls become spaces: subjects and list items stay on one line. */
function singleLine(value: string): string {
  return (
    value
      // eslint-disable-next-line no-control-regex -- matching control characters is the point
      .replace(/[\u0000-\u001f\u007f\u0085\u2028\u2029]/g, ' ')
      .replace(/\s+/g, ' ')
      .trim()
  );
}

function idOf(value: unknown): number | undefined {
  const id = typeof value === 'string' && /^[1-9][0-9]{0,15}$/.test(value) ? Number(value) : value;
  return typeof id === 'number' && Number.isSafeInteger(id) && id > 0 ? id : undefined;
}
