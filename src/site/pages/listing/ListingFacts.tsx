import type { ComponentChildren } from 'preact';
import { richText } from '../../../lib/text.js';
import type { PropertyRecord } from '../../../modules/properties/index.js';
import type { PageContext } from '../../page.js';
import { withQuery } from '../../paths.js';
import { httpUrl } from './embeds.js';
import { listingText } from './listing.text.js';

/**
 * The listing's facts: overview, description, details, features and floor plans. Each block is left out when the
 * listing has nothing for it, so that a sparse listing shows no empty headings.
 */

/** A titled block of the listing page, its heading linked to the section for assistive technology. */
export function Block({
  id,
  heading,
  children,
  className,
}: {
  id: string;
  heading: string;
  children: ComponentChildren;
  className?: string;
}) {
  return (
    <section class={className ? `listing-block ${className}` : 'listing-block'} id={id} aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`}>{heading}</h2>
      {children}
    </section>
  );
}

type Pair = readonly [string, string];

/** A list of name–value pairs. */
function Pairs({ pairs, className = 'pairs' }: { pairs: readonly Pair[]; className?: string }) {
  return (
    <dl class={className}>
      {pairs.map(([name, value], index) => (
        <div key={index} class="pairs__item">
          <dt>{name}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

const names = (terms: readonly { name: string }[]) => terms.map((term) => term.name).join(', ');

/** The overview's pairs, in the order the brief of a listing reads: what it is, then its rooms, then its sizes. */
function overviewPairs(ctx: PageContext, listing: PropertyRecord): Pair[] {
  const t = listingText[ctx.lang];
  const n = (value: number) => ctx.format.number(value);
  const pairs: (Pair | null)[] = [
    listing.property_type.length > 0 ? [t.type, names(listing.property_type)] : null,
    listing.property_status.length > 0 ? [t.status, names(listing.property_status)] : null,
    listing.property_label.length > 0 ? [t.label, names(listing.property_label)] : null,
    listing.bedrooms !== null ? [t.bedrooms, listing.bedrooms === 0 ? t.studio : n(listing.bedrooms)] : null,
    listing.bathrooms !== null ? [t.bathrooms, n(listing.bathrooms)] : null,
    listing.rooms !== null ? [t.rooms, n(listing.rooms)] : null,
    listing.garage !== null ? [t.garage, n(listing.garage)] : null,
    listing.garage_size !== '' ? [t.garage_size, listing.garage_size] : null,
    listing.size !== null ? [t.size, ctx.format.area(listing.size, listing.size_unit)] : null,
    listing.land_size !== null ? [t.land_size, ctx.format.area(listing.land_size, listing.land_size_unit)] : null,
    listing.year_built !== null ? [t.year_built, String(listing.year_built)] : null,
  ];
  return pairs.filter((pair) => pair !== null);
}

export function Overview({ ctx, listing }: { ctx: PageContext; listing: PropertyRecord }) {
  const pairs = overviewPairs(ctx, listing);
  if (pairs.length === 0) return null;
  return (
    <Block id="overview" heading={listingText[ctx.lang].overview}>
      <Pairs pairs={pairs} className="pairs pairs--overview" />
    </Block>
  );
}

/**
 * The description: HTML the API sanitized when it was written (p, br, strong, em, lists, http(s) links), reduced
 * to the same allow-list again here, so that a description written past the API (an import, a hand-made row)
 * cannot put a script in the page either. Sanitizing clean HTML leaves it as it is.
 */
export function Description({ ctx, listing }: { ctx: PageContext; listing: PropertyRecord }) {
  const html = richText(listing.description);
  if (html === '') return null;
  return (
    <Block id="description" heading={listingText[ctx.lang].description}>
      <div class="prose" dangerouslySetInnerHTML={{ __html: html }} />
    </Block>
  );
}

export function Details({ ctx, listing }: { ctx: PageContext; listing: PropertyRecord }) {
  const t = listingText[ctx.lang];
  const pairs: Pair[] = [
    ...(listing.reference !== '' ? [[t.reference, listing.reference] as const] : []),
    ...listing.additional_features
      .filter((feature) => feature.title !== '' || feature.value !== '')
      .map((f) => [f.title, f.value] as const),
  ];
  if (pairs.length === 0) return null;
  return (
    <Block id="details" heading={t.details}>
      <Pairs pairs={pairs} />
    </Block>
  );
}

/** The features, each a link to the listings that have it too. */
export function Features({ ctx, listing }: { ctx: PageContext; listing: PropertyRecord }) {
  if (listing.features.length === 0) return null;
  return (
    <Block id="features" heading={listingText[ctx.lang].features}>
      <ul class="feature-list">
        {listing.features.map((feature) => (
          <li key={feature.id}>
            <a href={ctx.path(withQuery('/properties', { feature: feature.slug }))}>{feature.name}</a>
          </li>
        ))}
      </ul>
    </Block>
  );
}

/**
 * The floor plans: each with its figures and description, and its picture as a link (the picture may be on any
 * server, which the page's CSP does not let it show inline; a URL that is not http(s) is left out).
 */
export function FloorPlans({ ctx, listing }: { ctx: PageContext; listing: PropertyRecord }) {
  if (listing.floor_plans.length === 0) return null;
  const t = listingText[ctx.lang];
  const n = (value: number) => ctx.format.number(value);
  return (
    <Block id="floor-plans" heading={t.floor_plans}>
      <div class="floor-plans">
        {listing.floor_plans.map((plan, index) => {
          const pairs: Pair[] = [];
          if (plan.rooms !== null) pairs.push([t.rooms, n(plan.rooms)]);
          if (plan.bathrooms !== null) pairs.push([t.bathrooms, n(plan.bathrooms)]);
          if (plan.size !== null) pairs.push([t.size, `${n(plan.size)}${plan.size_postfix ? ` ${plan.size_postfix}` : ''}`]);
          if (plan.price !== null) pairs.push([t.plan_price, `${ctx.format.money(plan.price, listing.currency)}${plan.price_postfix}`]);
          const image = httpUrl(plan.image_url);
          return (
            <article key={index} class="floor-plan">
              <h3>{plan.title || `${t.floor_plans} ${n(index + 1)}`}</h3>
              {pairs.length > 0 ? <Pairs pairs={pairs} /> : null}
              {plan.description ? <p>{plan.description}</p> : null}
              {image ? (
                <p>
                  <a href={image.href} rel="nofollow noopener">
                    {t.plan_see}
                  </a>
                </p>
              ) : null}
            </article>
          );
        })}
      </div>
    </Block>
  );
}
