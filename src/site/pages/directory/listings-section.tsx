import type { PropertyListRecord } from '../../../modules/properties/index.js';
import { ListingCard } from '../../components/ListingCard.js';
import { Pagination } from '../../components/Pagination.js';
import type { PageContext } from '../../page.js';
import { withQuery } from '../../paths.js';
import { fill } from '../../texts.js';
import { directoryText } from './directory.text.js';

/** The query of a profile page: the page of each of its lists, and the thanks after a form was sent. */
export interface ProfileQuery {
  readonly page?: number;
  readonly reviews_page?: number;
  readonly agents_page?: number;
  readonly sent?: 'contact' | 'review';
}

/**
 * The addresses of a profile page's lists. The listings' pages are the page's own (canonical, indexed); another
 * page of reviews or agents, and the thank-you of a form, repeat the page and are not indexed.
 */
export function profileHrefs(ctx: PageContext, base: string, query: ProfileQuery) {
  const listingPage = query.page ?? 1;
  const own = listingPage > 1 ? listingPage : undefined;
  const later = (n: number) => (n > 1 ? n : undefined);
  return {
    listingPage,
    canonical: withQuery(base, { page: own }),
    isVariant: (query.reviews_page ?? 1) > 1 || (query.agents_page ?? 1) > 1 || query.sent !== undefined,
    listings: (n: number) => `${ctx.path(withQuery(base, { page: later(n) }))}#listings`,
    reviews: (n: number) => `${ctx.path(withQuery(base, { page: own, reviews_page: later(n) }))}#reviews`,
    agents: (n: number) => `${ctx.path(withQuery(base, { page: own, agents_page: later(n) }))}#agents`,
  };
}

/** A profile's published listings: 20 cards a page and the paging, as GET /agents/{id}/properties pages them. */
export function ListingsSection({
  ctx,
  name,
  listings,
  href,
}: {
  ctx: PageContext;
  name: string;
  listings: PropertyListRecord;
  href: (page: number) => string;
}) {
  const t = directoryText[ctx.lang];
  const heading = fill(t.listings_of, { name });
  return (
    <section class="section" id="listings" aria-labelledby="listings-heading">
      <h2 id="listings-heading">{heading}</h2>
      {listings.properties.length > 0 ? (
        <ul class="card-grid">
          {listings.properties.map((listing) => (
            <li key={listing.id}>
              <ListingCard ctx={ctx} listing={listing} />
            </li>
          ))}
        </ul>
      ) : (
        <p class="muted">{t.no_listings}</p>
      )}
      <Pagination
        ctx={ctx}
        page={listings.pagination.current_page}
        totalPages={listings.pagination.total_pages}
        href={href}
        label={heading}
      />
    </section>
  );
}
