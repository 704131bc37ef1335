import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { PUBLIC_REVALIDATE, sendCacheable } from '../../http/cache.js';
import { Envelope, errorResponses } from '../../http/envelope.js';
import { UpdateSiteSettingsBody } from './site-settings.schemas.js';
import type { SiteSettingsService } from './site-settings.service.js';

/** Anyone may keep the brand, revalidating it: it changes rarely, and then at once. */

/** The website's brand (docs/api.md 14): read by anyone, set by administrators. */
export async function siteSettingsRoutes(app: FastifyInstance, { siteSettings }: { siteSettings: SiteSettingsService }) {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();

  api.get(
    '/site-settings',
    {
      schema: {
        tags: ['site-settings'],
        summary: 'The website’s brand: name, tagline, logo, colours, contact details, hero picture, home page sections',
        description:
          'Public. The defaults until an administrator changes anything (`updated_at` null). Sent with an ETag and ' +
          '`Cache-Control: public, no-cache`; a matching `If-None-Match` answers 304.',
        response: { 200: Envelope(Type.Ref('SiteSettings')), ...errorResponses(400, 429) },
      },
    },
    async (request, reply) => {
      const data = await siteSettings.settings();
      return sendCacheable(request, reply, data, PUBLIC_REVALIDATE, () => ({ success: true, data }));
    },
  );

  api.put(
    '/site-settings',
    {
      config: { auth: ['administrator'] },
      schema: {
        tags: ['site-settings'],
        summary: 'Change the website’s brand (administrator)',
        description:
          'Partial: omitted fields stay; at least one field. Text loses HTML tags and line breaks and is trimmed. ' +
          '`logo_id` and `hero_image_id` are media ids of images the caller uploaded (POST /media/upload; anyone else’s ' +
          'upload or an unknown id → 400 on the field), answered as `logo_url` and `hero_image_url`; null removes one. ' +
          'Colours must keep the site readable (WCAG AA): white text on `primary_color` at least 4.5:1; dark text ' +
          '(#1b1f24) on `accent_color` at least 4.5:1 and `accent_color` against white at least 3:1 — else 400 naming ' +
          'the ratio. The website shows the change at once, in every server process within CACHE_REVALIDATE_MS.',
        security: [{ bearer: [] }],
        body: UpdateSiteSettingsBody,
        response: { 200: Envelope(Type.Ref('SiteSettings')), ...errorResponses(400, 401, 403, 413, 415, 429) },
      },
    },
    async (request) => ({ success: true, data: await siteSettings.update(request.user!, request.body) }),
  );
}
