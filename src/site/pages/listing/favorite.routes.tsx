import { Type } from 'typebox';
import { PAGE_ROUTE, type SiteRoutes } from '../../site-routes.js';

const FavoriteParams = Type.Object({ id: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }) });
const FavoriteFormBody = Type.Object(
  {
    favorite: Type.Optional(Type.Enum(['true', 'false'])),
    next: Type.Optional(Type.String({ maxLength: 2000 })),
    csrf: Type.Optional(Type.String({ maxLength: 200 })),
    website: Type.Optional(Type.String({ maxLength: 2000 })),
  },
  { additionalProperties: false },
);

/** Where a visitor goes back to when none (or no path of this site) is named. */
const DEFAULT_BACK = '/account/favorites';

/** A plain path of this site (`/property/x`, `/account/favorites?page=2`): never another origin, nor `//host`. */
function safeBackPath(next: unknown): string {
  if (typeof next !== 'string' || !next.startsWith('/') || next.startsWith('//') || /[\\\s]/.test(next)) return DEFAULT_BACK;
  return next;
}

/**
 * `POST /favorites/:id`: the favourite button of listing cards and pages (docs/site.md), as
 * POST /favorite-property/{id} with `{favorite: true|false}`. Anonymous visitors are sent to sign in first
 * (303, coming back to the page they were on); a signed-in visitor's post (CSRF-checked) sets the state and
 * comes back (303) to `next`.
 */
export const favoriteRoutes: SiteRoutes = (scope, site, lang) => {
  scope.post(
    '/favorites/:id',
    { ...PAGE_ROUTE, schema: { ...PAGE_ROUTE.schema, params: FavoriteParams, body: FavoriteFormBody } },
    async (request, reply) => {
      const { caller } = await site.checkPost(request, reply);
      const { id } = request.params as { id: number };
      const body = (request.body ?? {}) as { favorite?: 'true' | 'false'; next?: string };
      const back = safeBackPath(body.next);
      if (!caller) return site.seeOther(reply, lang, `/sign-in?next=${encodeURIComponent(back)}`);
      await site.services.favorites.setFavorite(caller, id, body.favorite === undefined ? undefined : body.favorite === 'true');
      return site.seeOther(reply, lang, back);
    },
  );
};
