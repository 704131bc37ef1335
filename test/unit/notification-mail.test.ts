import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '../../src/i18n/index.js';
import { NOTIFICATION_TYPES } from '../../src/db/schema/index.js';
import {
  escapeHtml,
  listingsOfData,
  renderNotificationMail,
  unsubscribeHeaders,
  unsubscribeUrl,
} from '../../src/modules/notifications/delivery/notification-mail.js';
import { notificationTypeLabel } from '../../src/modules/notifications/delivery/notification-mail-texts.js';
import type { DeliveryPayload } from '../../src/modules/notifications/delivery/notifier.service.js';

const UNSUBSCRIBE = 'https://realty.test/realty-api/v1/notifications/unsubscribe?token=abc.def';

const payload = (overrides: Partial<DeliveryPayload> = {}): DeliveryPayload => ({
  user_id: 3,
  type: 'system',
  title: 'Maintenance tonight',
  message: 'We will be down for an hour.',
  data: {},
  notification_id: 1,
  ...overrides,
});

describe('notification mail', () => {
  it('greets the recipient, carries the message and a footer with the unsubscribe link', () => {
    const mail = renderNotificationMail(payload(), { displayName: 'Ann', language: 'en' }, { unsubscribeUrl: UNSUBSCRIBE });
    expect(mail.subject).toBe('Maintenance tonight');
    expect(mail.text).toBe(
      'Hello Ann,\n\nWe will be down for an hour.\n\n-- \n' +
        'You get this e-mail because announcement e-mails are turned on for your account.\n' +
        `Unsubscribe from announcement e-mails: ${UNSUBSCRIBE}\n`,
    );
    expect(mail.html).toContain('<html lang="en" dir="ltr">');
    expect(mail.html).toContain(`<a href="${UNSUBSCRIBE}">Unsubscribe from announcement e-mails</a>`);
  });

  it('escapes every value in the HTML part and keeps the subject on one line', () => {
    const mail = renderNotificationMail(
      payload({ title: 'Hi <script>alert("x")</script>\r\nBcc: evil@example.test', message: 'a & b\n<img src=x onerror=y>' }),
      { displayName: '<b>Mallory</b> & "co"', language: 'en' },
      { listing: { title: 'x', url: 'https://realty.test/property/a?b=1&c="2"' }, unsubscribeUrl: UNSUBSCRIBE },
    );
    expect(mail.subject).toBe('Hi <script>alert("x")</script> Bcc: evil@example.test');
    expect(mail.html).not.toMatch(/<script|<img|<b>/);
    expect(mail.html).toContain('Hi &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; Bcc: evil@example.test');
    expect(mail.html).toContain('Hello &lt;b&gt;Mallory&lt;/b&gt; &amp; &quot;co&quot;,');
    expect(mail.html).toContain('a &amp; b<br>&lt;img src=x onerror=y&gt;');
    expect(mail.html).toContain('<a href="https://realty.test/property/a?b=1&amp;c=&quot;2&quot;">View the listing</a>');
    expect(mail.text).toContain('View the listing: https://realty.test/property/a?b=1&c="2"');
  });

  it('is laid out right to left in Arabic and written in the recipient’s language', () => {
    const ar = renderNotificationMail(payload(), { displayName: 'سارة', language: 'ar' }, { unsubscribeUrl: UNSUBSCRIBE });
    expect(ar.html).toContain('<html lang="ar" dir="rtl">');
    expect(ar.html).toContain('<body dir="rtl"');
    expect(ar.text).toContain('مرحبًا سارة،');
    expect(ar.text).toContain(`إلغاء الاشتراك في رسائل إشعارات الإدارة: ${UNSUBSCRIBE}`);
    const fr = renderNotificationMail(
      payload({ type: 'new_review' }),
      { displayName: 'Luc', language: 'fr' },
      { unsubscribeUrl: UNSUBSCRIBE },
    );
    expect(fr.html).toContain('dir="ltr"');
    expect(fr.text).toContain('Se désabonner des e-mails « nouvel avis » :');
    expect(fr.html).toContain('Se désabonner des e-mails « nouvel avis »</a>');
  });

  it('lists a digest’s listings and how many more there are', () => {
    const listings = [
      { title: 'Sea view', url: 'https://realty.test/property/sea-view' },
      { title: 'Garden <flat>', url: 'https://realty.test/property/garden' },
    ];
    const mail = renderNotificationMail(
      payload({ type: 'saved_search_match' }),
      { displayName: 'Ann', language: 'es' },
      { digest: { listings, more: 3 }, unsubscribeUrl: UNSUBSCRIBE },
    );
    expect(mail.text).toContain(
      'Anuncios:\n- Sea view\n  https://realty.test/property/sea-view\n- Garden <flat>\n  https://realty.test/property/garden\n… y 3 más',
    );
    expect(mail.html).toContain('<li><a href="https://realty.test/property/garden">Garden &lt;flat&gt;</a></li>');
    expect(mail.text).toContain('Darte de baja de los correos de alertas de búsquedas guardadas');
  });

  it('has a label for every type in every language', () => {
    for (const language of LANGUAGES) {
      for (const type of NOTIFICATION_TYPES) expect(notificationTypeLabel(language, type)).toMatch(/\S/);
    }
  });

  it('reads the listings of the data, ignoring what is not an id', () => {
    expect(listingsOfData({ property_id: 5 })).toEqual({ listingId: 5, digestIds: [] });
    expect(listingsOfData({ property_id: '6', property_ids: [1, '2', 2, 0, -1, 'x', 1.5, null] })).toEqual({
      listingId: 6,
      digestIds: [1, 2],
    });
    expect(listingsOfData({ property_id: { id: 1 }, property_ids: 'nope' })).toEqual({ listingId: undefined, digestIds: [] });
  });

  it('builds the link and the RFC 8058 headers', () => {
    const url = unsubscribeUrl('https://realty.test/wp-json/realty-api/v1', 'abc.def');
    expect(url).toBe('https://realty.test/wp-json/realty-api/v1/notifications/unsubscribe?token=abc.def');
    expect(unsubscribeHeaders(url)).toEqual({ 'List-Unsubscribe': `<${url}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' });
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
  });
});
