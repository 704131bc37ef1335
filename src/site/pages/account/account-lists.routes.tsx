import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Static } from 'typebox';
import type { AuthUser } from '../../../lib/signed-in-user.js';
import { AppError } from '../../../lib/errors.js';
import type { PageContext } from '../../page.js';
import { plainPathOf, withQuery } from '../../paths.js';
import { PAGE_ROUTE, type SiteRoutes } from '../../site-routes.js';
import { fill } from '../../texts.js';
import { accountText } from './account.text.js';
import { DeleteSavedBody, IdParams, ListQuery, RemoveFavoriteBody, SavedAlertsBody } from './account.schemas.js';
import { FavoritesPage, type ListPage, SavedSearchesPage } from './ListPages.js';
import type { Notice } from './AuthPages.js';

const FAVORITES_PER_PAGE = 12;
const SAVED_PER_PAGE = 20;

/**
 * `/account/favorites` and `/account/saved-searches`: the signed-in visitor's own lists, through the same service
 * calls as GET /users/favorite-properties and /saved-searches, with the forms that change them (remove a
 * favourite; a saved search's alerts; delete one). Anonymous visitors are sent to sign in and brought back.
 */
export const accountListRoutes: SiteRoutes = (scope, site, lang) => {
  const { propertyLists, favorites, savedSearches } = site.services;
  const t = accountText[lang];
  const listRoute = { ...PAGE_ROUTE, schema: { ...PAGE_ROUTE.schema, querystring: ListQuery } };
  const postRoute = <B,>(body: B) => ({ ...PAGE_ROUTE, attachValidation: true, schema: { ...PAGE_ROUTE.schema, params: IdParams, body } });

  /** The caller, or a 303 to the sign-in page that comes back to `returnTo` (this request's page when absent). */
  const signedIn = async (request: FastifyRequest, reply: FastifyReply, returnTo?: string) => {
    const caller = await site.callerOf(request, reply);
    if (!caller) site.seeOther(reply, lang, withQuery('/sign-in', { next: returnTo ?? plainPathOf(request.url, lang) }));
    return caller;
  };
  /** The caller of a form post that passed checkPost (same origin, CSRF) and its body's checks, else a 303 or the error. */
  const poster = async (request: FastifyRequest, reply: FastifyReply, returnTo: string): Promise<AuthUser | null> => {
    const { caller } = await site.checkPost(request, reply);
    if (!caller) {
      site.seeOther(reply, lang, withQuery('/sign-in', { next: returnTo }));
      return null;
    }
    if (request.validationError) throw request.validationError;
    return caller;
  };
  const callerIn = (ctx: PageContext): AuthUser => {
    // The session ended between the check above and the render: nothing private is shown, and nothing is cached.
    if (!ctx.visitor) throw new AppError('unauthorized');
    return ctx.visitor.caller;
  };

  scope.get('/account/favorites', listRoute, async (request, reply) => {
    if (!(await signedIn(request, reply))) return reply;
    const query = request.query as Static<typeof ListQuery>;
    return site.page(request, reply, lang, async (ctx) => {
      const answer = await propertyLists.favorites(callerIn(ctx), { page: query.page ?? 1, per_page: FAVORITES_PER_PAGE });
      const notice: Notice | null = query.removed !== undefined ? { kind: 'success', text: t.removed } : null;
      return {
        meta: meta(ctx, t.favorites_title, t.favorites_description),
        body: <FavoritesPage ctx={ctx} notice={notice} list={listPageOf(answer.properties, answer.pagination)} />,
      };
    });
  });

  scope.post('/account/favorites/:id/remove', postRoute(RemoveFavoriteBody), async (request, reply) => {
    const caller = await poster(request, reply, '/account/favorites');
    if (!caller) return reply;
    const { id } = request.params as Static<typeof IdParams>;
    await favorites.setFavorite(caller, id, false);
    const { page } = request.body as Static<typeof RemoveFavoriteBody>;
    return site.seeOther(reply, lang, withQuery('/account/favorites', { page: pageOf(page), removed: 1 }));
  });

  scope.get('/account/saved-searches', listRoute, async (request, reply) => {
    if (!(await signedIn(request, reply))) return reply;
    const query = request.query as Static<typeof ListQuery>;
    return site.page(request, reply, lang, async (ctx) => {
      const answer = await savedSearches.list(callerIn(ctx), { page: query.page ?? 1, per_page: SAVED_PER_PAGE }, lang);
      const saved = answer.saved_searches.find((search) => String(search.id) === query.saved);
      const notice: Notice | null =
        query.deleted !== undefined
          ? { kind: 'success', text: t.deleted }
          : saved
            ? { kind: 'success', text: fill(t.alerts_saved, { name: saved.name }) }
            : null;
      return {
        meta: meta(ctx, t.saved_title, t.saved_description),
        body: <SavedSearchesPage ctx={ctx} notice={notice} list={listPageOf(answer.saved_searches, answer.pagination)} />,
      };
    });
  });

  scope.post('/account/saved-searches/:id/alerts', postRoute(SavedAlertsBody), async (request, reply) => {
    const caller = await poster(request, reply, '/account/saved-searches');
    if (!caller) return reply;
    const { id } = request.params as Static<typeof IdParams>;
    const { alerts, page } = request.body as Static<typeof SavedAlertsBody>;
    await savedSearches.update(caller, id, alerts === 'off' ? { email_alerts: false } : { email_alerts: true, frequency: alerts }, lang);
    return site.seeOther(reply, lang, withQuery('/account/saved-searches', { page: pageOf(page), saved: id }));
  });

  scope.post('/account/saved-searches/:id/delete', postRoute(DeleteSavedBody), async (request, reply) => {
    const caller = await poster(request, reply, '/account/saved-searches');
    if (!caller) return reply;
    const { id } = request.params as Static<typeof IdParams>;
    await savedSearches.delete(caller, id);
    const { page } = request.body as Static<typeof DeleteSavedBody>;
    return site.seeOther(reply, lang, withQuery('/account/saved-searches', { page: pageOf(page), deleted: 1 }));
  });
};

/** A page of one of the visitor's lists as the list pages take it, from the API's answer and its pagination. */
function listPageOf<Item>(
  items: readonly Item[],
  pagination: { current_page: number; total_pages: number; total_records: number },
): ListPage<Item> {
  return { items, page: pagination.current_page, totalPages: pagination.total_pages, total: pagination.total_records };
}

/** The list page a form came from; the first page is the list's plain address. */
function pageOf(page: string | undefined): number | null {
  return page && page !== '1' ? Number(page) : null;
}

function meta(ctx: PageContext, title: string, description: string) {
  return { title, description: fill(description, { site: ctx.brand.siteName }), canonical: null, noindex: true };
}
