import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Envelope, errorResponses } from '../../../http/envelope.js';
import type { FavoritesService } from './favorites.service.js';
import {
  FavoriteBody,
  FavoritePropertiesQuery,
  FavoriteResult,
  LISTING_CREATORS,
  LISTING_MODERATORS,
  ModerationListQuery,
  MyPropertiesQuery,
  PropertyIdParams,
  PropertyList,
  SimilarList,
  SimilarQuery,
} from '../properties.schemas.js';
import type { PropertyListsService } from './property-lists.service.js';

export interface PropertyListRouteOptions {
  favorites: FavoritesService;
  propertyLists: PropertyListsService;
}

const security = [{ bearer: [] }];
const signedIn = { auth: 'user' } as const;

/** Favorites (docs/api.md 4.2), the caller's lists of listings (3.2), the moderators' list (3.3) and similar listings (4.2). */
export async function propertyListRoutes(app: FastifyInstance, { favorites, propertyLists }: PropertyListRouteOptions) {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();

  api.post(
    '/favorite-property/:id',
    {
      config: signedIn,
      schema: {
        tags: ['properties'],
        summary: 'Toggle a listing among the caller’s favorites, or set it',
        description:
          'Without a body (no Content-Type needed), or with `{}`, toggles. `{"favorite": true}` or `false` sets ' +
          'instead, and is idempotent. `added` is whether the listing is a favorite of the caller now; ' +
          '`favorites_count` is the listing’s total number of favorites, all users together. Only a listing the ' +
          'caller may see (published or sold, else their own; administrators and managers: any) → else 404, ' +
          'removing included. Concurrent requests for the same favorite all succeed.',
        security,
        params: PropertyIdParams,
        body: FavoriteBody,
        response: { 200: Envelope(FavoriteResult), ...errorResponses(400, 401, 403, 404, 413, 415, 429) },
      },
    },
    async (request) => ({
      success: true,
      data: await favorites.setFavorite(request.user!, request.params.id, request.body?.favorite),
    }),
  );

  api.get(
    '/users/favorite-properties',
    {
      config: signedIn,
      schema: {
        tags: ['users'],
        summary: 'The caller’s favorite listings, newest favorite first',
        description:
          'Summaries with `is_favorite: true`, ordered by when each became a favorite (newest first; ties by ' +
          'listing id, descending). A favorite whose listing the caller may no longer see (e.g. moved back to ' +
          '`pending` and not theirs) is left out of the list and of `pagination`; it comes back if the listing ' +
          'is published again.',
        security,
        querystring: FavoritePropertiesQuery,
        response: { 200: Envelope(PropertyList), ...errorResponses(400, 401, 403, 429) },
      },
    },
    async (request) => ({ success: true, data: await propertyLists.favorites(request.user!, request.query) }),
  );

  api.get(
    '/users/my-properties',
    {
      config: { auth: LISTING_CREATORS },
      schema: {
        tags: ['users'],
        summary: 'The caller’s own listings, in every state (listing creators)',
        description:
          'Listings the caller authored and, for an agency, those authored by its agents (administrators and ' +
          'managers get their own too, not everyone’s). `status`: one state, or `all` (default). `keyword`: ' +
          'a substring of the title or the reference, ignoring the case of ASCII letters. `sortby` as GET ' +
          '/properties (default d_date, by `published_at`); listings never published come last in the date ' +
          'sorts, listings without a price or size last in those sorts; ties by id descending. Buyers → 403.',
        security,
        querystring: MyPropertiesQuery,
        response: { 200: Envelope(PropertyList), ...errorResponses(400, 401, 403, 429) },
      },
    },
    async (request) => ({ success: true, data: await propertyLists.ownListings(request.user!, request.query) }),
  );

  api.get(
    // A static path: find-my-way prefers it to /properties/:id whatever the order of registration.
    '/properties/moderation',
    {
      config: { auth: LISTING_MODERATORS },
      schema: {
        tags: ['properties'],
        summary: 'Every user’s listings in one state, for moderators (default: awaiting approval)',
        description:
          'Administrators and managers only (others → 403): every user’s listings, whoever owns them. `status`: ' +
          'one state, or `all`; default `pending`, the listings awaiting approval. `keyword`: a substring of the ' +
          'title or the reference, ignoring the case of ASCII letters. `author_id`: only that user’s listings (as ' +
          'authored). Default order: the most recently changed first (`updated_at` descending, which every state ' +
          'move, edit and featuring sets), ties by id descending; `sortby` takes the values of GET ' +
          '/users/my-properties instead. Summaries as in every list; `pagination` counts every match.',
        security,
        querystring: ModerationListQuery,
        response: { 200: Envelope(PropertyList), ...errorResponses(400, 401, 403, 429) },
      },
    },
    async (request) => ({ success: true, data: await propertyLists.moderationList(request.user!, request.query) }),
  );

  api.get(
    '/properties/:id/similar',
    {
      schema: {
        tags: ['properties'],
        summary: 'Published listings similar to one',
        description:
          'The listing must be visible to the caller (else 404). Similar: published (not sold), sharing at ' +
          'least one property type with it (none when it has no type), priced within ±25 % of its price ' +
          '(inclusive; any price when it has none), and in its city, else its state, else its country (anywhere ' +
          'when it has no location); the listing itself is excluded. Nearest price first, ties by id ' +
          'descending. `limit` 1–20, default 4.',
        params: PropertyIdParams,
        querystring: SimilarQuery,
        response: { 200: Envelope(SimilarList), ...errorResponses(400, 401, 404, 429) },
      },
    },
    async (request) => ({ success: true, data: await propertyLists.similar(request.user, request.params.id, request.query) }),
  );
}
