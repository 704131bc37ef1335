import { Type } from 'typebox';
import { FEED_FORMAT_NAMES, FEED_FORMATS } from '../feed-formats.js';

export const ExportParams = Type.Object({
  format: Type.Enum(FEED_FORMAT_NAMES, { description: '`csv`, `reso` (RESO Data Dictionary JSON) or `kyero` (Kyero v3 XML)' }),
});

/** The media types of the feed formats without their parameters (`text/csv`, …), as OpenAPI keys them. */
const MEDIA_TYPES = [...new Set(Object.values(FEED_FORMATS).map((format) => format.mediaType.split(';')[0]!))];

/**
 * A feed file as a response: a streamed text body in the format's media type (UTF-8), saved as
 * `listings.<extension>`. Never serialized: the route sends a stream, which Fastify passes through as is.
 */
export const FeedFileResponse = {
  description:
    'The feed file, streamed: `text/csv` for csv, `application/json` for reso, `application/xml` for kyero (UTF-8). ' +
    'Its layout is described in docs/data-exchange.md.',
  headers: {
    'content-disposition': Type.String({ description: 'attachment; filename="listings.csv" (.json, .xml)' }),
  },
  content: Object.fromEntries(MEDIA_TYPES.map((type) => [type, { schema: Type.String() }])),
};

/** A portal's feed (GET /feeds/{token}): a feed file, kept built while its data holds and revalidated by ETag. */
export const PortalFeedResponse = {
  ...FeedFileResponse,
  description:
    `${FeedFileResponse.description} Sent from memory while the listings and terms are unchanged, compressed when the ` +
    'client accepts gzip or brotli; a feed larger than PORTAL_FEED_CACHE_MB is streamed, without an ETag.',
  headers: {
    ...FeedFileResponse.headers,
    etag: Type.String({ description: 'Changes exactly when the feed’s bytes do; send it back as If-None-Match for a 304' }),
    'cache-control': Type.String({ description: '`private, no-cache` (`private, no-store` for a streamed feed)' }),
  },
};
