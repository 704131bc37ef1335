import type { PropertySummaryRecord } from '../../modules/properties/index.js';
import type { PageContext } from '../page.js';
import { listingPath } from '../paths.js';
import { fill } from '../texts.js';
import { componentsText } from './components.text.js';
import { mediaOf, Picture } from './Picture.js';

/** The place line of a listing: area, city, state — as much as it has, most precise first. */
export function placeOf(listing: Pick<PropertySummaryRecord, 'address'>): string {
  const { area, city, state, country } = listing.address;
  return [area, city, state ?? country]
    .filter((term) => term !== null)
    .map((term) => term!.name)
    .join(', ');
}

/** The facts line of a card: bedrooms (or studio), bathrooms, size. */
function ListingFacts({ ctx, listing }: { ctx: PageContext; listing: PropertySummaryRecord }) {
  const t = componentsText[ctx.lang];
  const facts: string[] = [];
  if (listing.bedrooms !== null)
    facts.push(listing.bedrooms === 0 ? t.studio : fill(t.bedrooms, { count: ctx.format.number(listing.bedrooms) }));
  if (listing.bathrooms !== null) facts.push(fill(t.bathrooms, { count: ctx.format.number(listing.bathrooms) }));
  if (listing.size !== null) facts.push(ctx.format.area(listing.size, listing.size_unit));
  if (facts.length === 0) return null;
  return (
    <ul class="facts">
      {facts.map((fact) => (
        <li key={fact}>{fact}</li>
      ))}
    </ul>
  );
}

/** A listing in a list: picture, price, title (the link), place and facts. */
export function ListingCard({
  ctx,
  listing,
  priority = false,
  headingLevel = 3,
}: {
  ctx: PageContext;
  listing: PropertySummaryRecord;
  priority?: boolean;
  headingLevel?: 2 | 3;
}) {
  const t = componentsText[ctx.lang];
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  const price = ctx.format.price(listing) || t.price_on_request;
  const image = mediaOf(listing.featured_image);
  return (
    <article class="card">
      <div class="card__media">
        {image ? (
          <Picture media={image} sizes="(min-width: 64em) 22rem, (min-width: 40em) 45vw, 92vw" alt="" priority={priority} />
        ) : (
          <div class="card__placeholder" aria-hidden="true" />
        )}
        <div class="card__badges">
          {listing.featured ? <span class="badge badge--accent">{t.featured}</span> : null}
          {listing.status === 'sold' ? <span class="badge badge--dark">{t.sold}</span> : null}
          {listing.property_status.slice(0, 1).map((term) => (
            <span key={term.id} class="badge">
              {term.name}
            </span>
          ))}
        </div>
      </div>
      <div class="card__body">
        <p class="card__price">{price}</p>
        <Heading class="card__title">
          <a href={ctx.path(listingPath(listing.slug))}>{listing.title}</a>
        </Heading>
        <p class="card__place">{placeOf(listing)}</p>
        <ListingFacts ctx={ctx} listing={listing} />
      </div>
    </article>
  );
}
