import type { ComponentChildren } from 'preact';
import type { PropertySummaryRecord } from '../../../modules/properties/index.js';
import { componentsText } from '../../components/components.text.js';
import { FormNotice } from '../../components/Form.js';
import { placeOf } from '../../components/ListingCard.js';
import { mediaOf, Picture } from '../../components/Picture.js';
import type { PageContext } from '../../page.js';
import { listingPath, withQuery } from '../../paths.js';
import { fill } from '../../texts.js';
import { compareText } from './compare.text.js';
import { MAX_COMPARED } from './compare-selection.js';

/** What the compare page says above its table. */
export type CompareNotice =
  | { readonly kind: 'invalid' }
  | { readonly kind: 'too_many'; readonly first: readonly number[] }
  | { readonly kind: 'missing'; readonly count: number }
  | { readonly kind: 'full' };

export interface CompareData {
  readonly listings: readonly PropertySummaryRecord[];
  readonly notice: CompareNotice | null;
}

/** The compare address of a set of ids (none: the empty page). */
export const comparePath = (ids: readonly number[]) => withQuery('/compare', { ids: ids.length > 0 ? ids.join(',') : undefined });

function Notice({ ctx, notice }: { ctx: PageContext; notice: CompareNotice }) {
  const t = compareText[ctx.lang];
  switch (notice.kind) {
    case 'invalid':
      return <FormNotice kind="error">{t.invalid}</FormNotice>;
    case 'too_many':
      return (
        <FormNotice kind="error">
          {t.too_many} <a href={ctx.path(comparePath(notice.first))}>{t.compare_first}</a>
        </FormNotice>
      );
    case 'missing':
      return <FormNotice kind="error">{fill(t.missing, { count: ctx.format.number(notice.count) })}</FormNotice>;
    case 'full':
      return <FormNotice kind="error">{t.full}</FormNotice>;
  }
}

/**
 * Up to four listings side by side (docs/site.md): a table whose columns are the listings and whose rows are what
 * to compare, each listing with a link to remove it. A pure function of the listings and the context.
 */
export function ComparePage({ ctx, data }: { ctx: PageContext; data: CompareData }) {
  const t = compareText[ctx.lang];
  const c = componentsText[ctx.lang];
  const { listings } = data;
  const ids = listings.map((listing) => listing.id);
  const none = <span class="muted">{t.none}</span>;
  const area = (value: number | null, unit: 'sqft' | 'm2') => (value === null ? none : ctx.format.area(value, unit));
  const count = (value: number | null) => (value === null ? none : ctx.format.number(value));
  const rows: [string, (listing: PropertySummaryRecord) => ComponentChildren][] = [
    [
      t.picture,
      (listing) => {
        const image = mediaOf(listing.featured_image);
        return image ? <Picture media={image} sizes="(min-width: 64em) 16rem, 40vw" alt="" /> : none;
      },
    ],
    [t.price, (listing) => ctx.format.price(listing) || c.price_on_request],
    [t.place, (listing) => placeOf(listing) || none],
    [t.type, (listing) => listing.property_type.map((type) => type.name).join(', ') || none],
    [t.bedrooms, (listing) => (listing.bedrooms === 0 ? c.studio : count(listing.bedrooms))],
    [t.bathrooms, (listing) => count(listing.bathrooms)],
    [t.size, (listing) => area(listing.size, listing.size_unit)],
    [t.land, (listing) => area(listing.land_size, listing.land_size_unit)],
    [t.year, (listing) => (listing.year_built === null ? none : String(listing.year_built))],
    [
      t.features,
      (listing) =>
        listing.features.length === 0 ? (
          none
        ) : (
          <ul class="compare__features">
            {listing.features.map((feature) => (
              <li key={feature.id}>{feature.name}</li>
            ))}
          </ul>
        ),
    ],
  ];
  return (
    <section class="wrap section compare">
      <h1>{t.title}</h1>
      {data.notice ? <Notice ctx={ctx} notice={data.notice} /> : null}
      {listings.length === 0 ? (
        <>
          <p>{t.empty}</p>
          <p>
            <a class="button" href={ctx.path('/properties')}>
              {t.browse}
            </a>
          </p>
        </>
      ) : (
        <section class="compare__scroll" aria-label={t.table_label} tabIndex={0}>
          <table class="compare__table">
            <caption>{listings.length === 1 ? t.caption_one : fill(t.caption, { count: ctx.format.number(listings.length) })}</caption>
            <thead>
              <tr>
                <th scope="col">{t.property}</th>
                {listings.map((listing) => (
                  <th key={listing.id} scope="col">
                    <a href={ctx.path(listingPath(listing.slug))}>
                      <bdi>{listing.title}</bdi>
                    </a>
                    {listing.status === 'sold' ? <span class="badge badge--dark">{c.sold}</span> : null}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.map(([name, cell]) => (
                <tr key={name}>
                  <th scope="row">{name}</th>
                  {listings.map((listing) => {
                    // Text of the listings' own (often another script than the page's) keeps its direction.
                    const value = cell(listing);
                    return <td key={listing.id}>{typeof value === 'string' ? <bdi>{value}</bdi> : value}</td>;
                  })}
                </tr>
              ))}
              <tr class="compare__remove">
                <th scope="row">
                  <span class="visually-hidden">{t.remove}</span>
                </th>
                {listings.map((listing) => (
                  <td key={listing.id}>
                    <a
                      class="button button--quiet"
                      href={ctx.path(withQuery('/compare', { ids: ids.join(','), remove: listing.id }))}
                      rel="nofollow"
                      aria-label={fill(t.remove_label, { title: listing.title })}
                    >
                      {t.remove}
                    </a>
                  </td>
                ))}
              </tr>
            </tbody>
          </table>
        </section>
      )}
      {listings.length > 0 && listings.length < MAX_COMPARED ? (
        <p class="compare__more">
          <a href={ctx.path('/properties')}>{t.browse}</a>
        </p>
      ) : null}
    </section>
  );
}
