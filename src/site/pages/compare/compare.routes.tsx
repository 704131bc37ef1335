import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { PropertySummaryRecord } from '../../../modules/properties/index.js';
import { searchListings } from '../../listings.js';
import { PAGE_ROUTE, type SiteRoutes } from '../../site-routes.js';
import { compareText } from './compare.text.js';
import { type CompareData, type CompareNotice, ComparePage, comparePath } from './ComparePage.js';
import { keepSelection, MAX_COMPARED, parseIds, selectionOf } from './compare-selection.js';

const CompareQuery = Type.Object(
  {
    ids: Type.Optional(Type.String({ maxLength: 2000 })),
    add: Type.Optional(Type.String({ maxLength: 20 })),
    remove: Type.Optional(Type.String({ maxLength: 20 })),
    full: Type.Optional(Type.String({ maxLength: 20 })),
  },
  { additionalProperties: true },
);
type CompareRequest = FastifyRequest<{ Querystring: { ids?: string; add?: string; remove?: string; full?: string } }>;

const oneId = (value: string | undefined) => {
  const ids = value === undefined ? null : parseIds(value);
  return ids?.length === 1 ? ids[0]! : null;
};

/**
 * `/compare`: up to four published (or sold) listings side by side, kept out of search engines (docs/site.md).
 * `?ids=1,2,3` shows those; `?add=4` (the listing page's "Add to compare") and `?remove=2` change the visitor's
 * selection (a cookie) and answer 303 to the `?ids=` page; a bare `/compare` goes to the selection's page.
 * Malformed ids, more than four, or ids no longer published are said in words, never a server error.
 */
export const compareRoutes: SiteRoutes = (scope, site, lang) => {
  const secure = new URL(site.settings.publicUrl).protocol === 'https:';
  scope.get(
    '/compare',
    { ...PAGE_ROUTE, schema: { ...PAGE_ROUTE.schema, querystring: CompareQuery } },
    async (request: CompareRequest, reply) => {
      const { ids: idsParam, add, remove } = request.query;
      if (add !== undefined || remove !== undefined) {
        const base = idsParam !== undefined ? (parseIds(idsParam) ?? []).slice(0, MAX_COMPARED) : selectionOf(request);
        const added = oneId(add);
        const removed = oneId(remove);
        let ids = base.filter((id) => id !== removed);
        let full = false;
        if (added !== null && !ids.includes(added)) {
          if (ids.length >= MAX_COMPARED) full = true;
          else ids = [...ids, added];
        }
        keepSelection(reply, ids, secure);
        const path = comparePath(ids);
        return site.seeOther(reply, lang, full ? `${path}${path.includes('?') ? '&' : '?'}full=1` : path);
      }
      if (idsParam === undefined) {
        const kept = selectionOf(request);
        if (kept.length > 0) return site.seeOther(reply, lang, comparePath(kept));
      }
      return site.page(request, reply, lang, async (ctx) => {
        const t = compareText[lang];
        let notice: CompareNotice | null = null;
        let wanted: number[] = [];
        let status = 200;
        if (idsParam !== undefined) {
          const parsed = parseIds(idsParam);
          if (parsed === null) {
            notice = { kind: 'invalid' };
            status = 400;
          } else if (parsed.length > MAX_COMPARED) {
            notice = { kind: 'too_many', first: parsed.slice(0, MAX_COMPARED) };
            status = 400;
          } else wanted = parsed;
        }
        let listings: PropertySummaryRecord[] = [];
        if (wanted.length > 0) {
          const found = await searchListings(site.services, ctx.visitor?.caller ?? null, {
            ids: wanted.join(','),
            include_sold: true,
            per_page: MAX_COMPARED,
          });
          const byId = new Map(found.properties.map((listing) => [listing.id, listing]));
          listings = wanted.flatMap((id) => (byId.has(id) ? [byId.get(id)!] : []));
          if (listings.length < wanted.length) notice = { kind: 'missing', count: wanted.length - listings.length };
        }
        if (notice === null && request.query.full !== undefined) notice = { kind: 'full' };
        const data: CompareData = { listings, notice };
        return {
          status,
          meta: { title: t.title, description: t.description, canonical: '/compare', noindex: true },
          body: <ComparePage ctx={ctx} data={data} />,
        };
      });
    },
  );
};
