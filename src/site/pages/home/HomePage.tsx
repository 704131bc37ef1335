import type { PropertySummaryRecord } from '../../../modules/properties/index.js';
import type { TermRecord } from '../../../modules/taxonomies/index.js';
import { ListingCard } from '../../components/ListingCard.js';
import type { PageContext } from '../../page.js';
import { fill } from '../../texts.js';
import { homeText } from './home.text.js';

export interface HomeData {
  readonly featured: readonly PropertySummaryRecord[];
  readonly newest: readonly PropertySummaryRecord[];
  readonly cities: readonly TermRecord[];
  /** Cities and areas with listings: the suggestions of the search box. */
  readonly places: readonly TermRecord[];
  readonly types: readonly TermRecord[];
  readonly statuses: readonly TermRecord[];
}

/** The home page: the search box, then the sections the brand lists, in its order. */
export function HomePage({ ctx, data }: { ctx: PageContext; data: HomeData }) {
  const t = homeText[ctx.lang];
  let firstPicture = true;
  const listingSection = (id: string, heading: string, listings: readonly PropertySummaryRecord[]) =>
    listings.length === 0 ? null : (
      <section class="wrap section" aria-labelledby={id} key={id}>
        <h2 id={id}>{heading}</h2>
        <ul class="card-grid">
          {listings.map((listing) => {
            const priority = firstPicture && listing.featured_image !== null;
            if (priority) firstPicture = false;
            return (
              <li key={listing.id}>
                <ListingCard ctx={ctx} listing={listing} priority={priority} />
              </li>
            );
          })}
        </ul>
      </section>
    );
  const sections = ctx.brand.homeSections.map((section) => {
    switch (section) {
      case 'search':
        return <SearchHero key="search" ctx={ctx} data={data} />;
      case 'featured':
        return listingSection('featured', t.featured, data.featured);
      case 'newest':
        return listingSection('newest', t.newest, data.newest);
      case 'cities':
        return data.cities.length === 0 ? null : (
          <section class="wrap section" aria-labelledby="cities" key="cities">
            <h2 id="cities">{t.cities}</h2>
            <ul class="place-grid">
              {data.cities.map((city) => (
                <li key={city.id}>
                  <a class="place" href={ctx.path(`/properties/city/${encodeURIComponent(city.slug)}`)}>
                    <span class="place__name">{city.name}</span>
                    <span class="place__count">{fill(t.listings_count, { count: ctx.format.number(city.count) })}</span>
                  </a>
                </li>
              ))}
            </ul>
          </section>
        );
    }
  });
  return (
    <>
      {ctx.brand.homeSections.includes('search') ? null : <h1 class="visually-hidden">{ctx.brand.siteName}</h1>}
      {sections}
      <p class="wrap section see-all">
        <a class="button" href={ctx.path('/properties')}>
          {t.see_all}
        </a>
      </p>
    </>
  );
}

function SearchHero({ ctx, data }: { ctx: PageContext; data: HomeData }) {
  const t = homeText[ctx.lang];
  return (
    <section class={ctx.brand.heroImageUrl ? 'hero hero--picture' : 'hero'}>
      {/* Behind the text, out of the flow: its size cannot shift the page; a dark veil keeps the text readable. */}
      {ctx.brand.heroImageUrl ? (
        <img class="hero__picture" src={ctx.brand.heroImageUrl} alt="" fetchpriority="high" decoding="async" />
      ) : null}
      <div class="wrap hero__inner">
        <h1 class="hero__heading">{t.hero_heading}</h1>
        {ctx.brand.tagline ? <p class="hero__tagline">{ctx.brand.tagline}</p> : null}
        <form class="search-box" method="get" action={ctx.path('/properties')} role="search" aria-label={t.search_label}>
          <div class="field search-box__keyword">
            <label for="home-keyword">{t.keyword}</label>
            <input
              id="home-keyword"
              name="keyword"
              type="search"
              list="home-places"
              placeholder={t.keyword_placeholder}
              autocomplete="off"
              maxLength={200}
            />
            <datalist id="home-places">
              {data.places.map((place) => (
                <option key={place.id} value={place.name} />
              ))}
            </datalist>
          </div>
          <TermSelect id="home-type" name="type" label={t.type} any={t.any} terms={data.types} />
          <TermSelect id="home-status" name="status" label={t.status} any={t.any} terms={data.statuses} />
          <button class="button button--large" type="submit">
            {t.search}
          </button>
        </form>
      </div>
    </section>
  );
}

function TermSelect({
  id,
  name,
  label,
  any,
  terms,
}: {
  id: string;
  name: string;
  label: string;
  any: string;
  terms: readonly TermRecord[];
}) {
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <select id={id} name={name}>
        <option value="">{any}</option>
        {terms.map((term) => (
          <option key={term.id} value={term.slug}>
            {term.name}
          </option>
        ))}
      </select>
    </div>
  );
}
