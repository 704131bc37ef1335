import { PAGE_ROUTE, type SiteRoutes } from '../../site-routes.js';
import { searchListings } from '../../listings.js';
import { fill } from '../../texts.js';
import { HomePage } from './HomePage.js';
import { homeText } from './home.text.js';

const SECTION_SIZE = 8;
const TERMS_SHOWN = 50;

/** `/`: the home page. */
export const homeRoutes: SiteRoutes = (scope, site, lang) => {
  const { taxonomies } = site.services;
  scope.get('/', PAGE_ROUTE, (request, reply) =>
    site.page(request, reply, lang, async (ctx) => {
      const popular = { hide_empty: 'true', orderby: 'count', order: 'desc' } as const;
      const [featured, newest, cities, areas, types, statuses] = await Promise.all([
        searchListings(site.services, ctx.visitor?.caller ?? null, { featured: true, per_page: SECTION_SIZE }),
        searchListings(site.services, ctx.visitor?.caller ?? null, { per_page: SECTION_SIZE }),
        taxonomies.termsOf('property_city', { ...popular, number: TERMS_SHOWN }),
        taxonomies.termsOf('property_area', { ...popular, number: TERMS_SHOWN }),
        taxonomies.termsOf('property_type', popular),
        taxonomies.termsOf('property_status', popular),
      ]);
      const t = homeText[lang];
      return {
        meta: {
          title: ctx.brand.tagline || t.title,
          description: fill(t.description, { site: ctx.brand.siteName }),
          canonical: '/',
          jsonLd: [
            {
              '@context': 'https://schema.org',
              '@type': 'WebSite',
              name: ctx.brand.siteName,
              url: `${ctx.publicUrl}${ctx.path('/')}`,
              potentialAction: {
                '@type': 'SearchAction',
                target: `${ctx.publicUrl}${ctx.path('/properties')}?keyword={search_term_string}`,
                'query-input': 'required name=search_term_string',
              },
            },
          ],
        },
        body: (
          <HomePage
            ctx={ctx}
            data={{
              featured: featured.properties,
              newest: newest.properties,
              cities: cities.slice(0, 8),
              places: [...cities, ...areas],
              types,
              statuses,
            }}
          />
        ),
      };
    }),
  );
};
