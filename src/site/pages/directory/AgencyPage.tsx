import { excerptOf, richText } from '../../../lib/text.js';
import type { AgencyRecord, AgentListRecord } from '../../../modules/directory/index.js';
import type { MediaRecord } from '../../../modules/media/index.js';
import type { PropertyListRecord } from '../../../modules/properties/index.js';
import type { ReviewListRecord } from '../../../modules/reviews/index.js';
import { breadcrumbJsonLd, Breadcrumbs, type Crumb } from '../../components/Breadcrumbs.js';
import { Pagination } from '../../components/Pagination.js';
import { RatingSummary, ReviewsSection } from '../../components/Reviews.js';
import type { PageContext, RenderedPage } from '../../page.js';
import { agencyPath } from '../../paths.js';
import { fill } from '../../texts.js';
import type { ProfileForms } from './AgentPage.js';
import { AgentCard } from './cards.js';
import { directoryText } from './directory.text.js';
import { agencyJsonLd, socialImageOf, titleWithName } from './directory-seo.js';
import { ListingsSection, profileHrefs, type ProfileQuery } from './listings-section.js';
import { ContactActions, ContactDetails, ContactForm, countOf, ProfileFacts, ProfileImage } from './profile-parts.js';

export interface AgencyPageData {
  readonly agency: AgencyRecord;
  readonly logo: MediaRecord | null;
  /** A page of its visible agents (GET /agents/search?agency_id=), with their pictures by agent id. */
  readonly agents: AgentListRecord;
  readonly agentPictures: ReadonlyMap<number, MediaRecord>;
  /** Its published listings and its agents', as GET /agencies/{id}/properties answers them. */
  readonly listings: PropertyListRecord;
  readonly reviews: ReviewListRecord;
}

/** The agency page (`/agency/<slug>`, the record's `url`): head, body and JSON-LD. A pure function of its data. */
export function agencyPage(ctx: PageContext, data: AgencyPageData, forms: ProfileForms, query: ProfileQuery): RenderedPage {
  const t = directoryText[ctx.lang];
  const { agency } = data;
  const base = agencyPath(agency.slug);
  const hrefs = profileHrefs(ctx, base, query);
  const crumbs: Crumb[] = [{ name: t.home, path: '/' }, { name: t.agencies, path: '/agencies' }, { name: agency.name }];
  const titleTemplate =
    hrefs.listingPage > 1 ? fill(t.page_suffix, { title: t.agency_title, page: ctx.format.number(hrefs.listingPage) }) : t.agency_title;
  const image = socialImageOf(data.logo, fill(t.logo_of, { name: agency.name }));
  const shown = { rating: data.reviews.rating, count: data.reviews.reviews_count };
  // Sanitized when stored (docs/api.md 0.4); sanitized again here, so that a row written past the API cannot add markup.
  const description = richText(agency.description);
  const summary = excerptOf(description);
  const jsonLd = {
    ...agencyJsonLd(agency, `${ctx.publicUrl}${ctx.path(base)}`, image, shown),
    ...(summary ? { description: summary } : {}),
  };
  return {
    meta: {
      title: titleWithName(titleTemplate, agency.name, ctx.brand.siteName),
      description: fill(t.agency_description, { name: agency.name, site: ctx.brand.siteName }),
      canonical: hrefs.canonical,
      noindex: hrefs.isVariant,
      image,
      jsonLd: [jsonLd, breadcrumbJsonLd(ctx, crumbs)],
    },
    body: (
      <div class="wrap profile-page">
        <Breadcrumbs ctx={ctx} crumbs={crumbs} />
        <header class="profile">
          <ProfileImage
            media={data.logo}
            name={agency.name}
            alt={fill(t.logo_of, { name: agency.name })}
            sizes="(min-width: 48em) 14rem, 9rem"
            priority
            className="profile__image profile__image--logo"
          />
          <div class="profile__main">
            <h1 class="profile__name">{agency.name}</h1>
            {agency.address ? <p class="profile__role">{agency.address}</p> : null}
            <p class="profile__stats">
              <RatingSummary ctx={ctx} rating={shown.rating} count={shown.count} />
              <span class="profile__count">{countOf(ctx, data.agents.pagination.total_records, 'agents_one', 'agents_other')}</span>
              <span class="profile__count">
                {countOf(ctx, data.listings.pagination.total_records, 'properties_one', 'properties_other')}
              </span>
            </p>
          </div>
          <ContactActions ctx={ctx} lines={agency} />
        </header>
        <div class="profile-columns">
          <div>
            {description ? (
              <section class="section" aria-labelledby="profile-about">
                <h2 id="profile-about">{t.about}</h2>
                <div class="rich-text" dangerouslySetInnerHTML={{ __html: description }} />
              </section>
            ) : null}
            <ProfileFacts
              ctx={ctx}
              facts={[
                ['license', agency.license],
                ['tax_number', agency.tax_number],
              ]}
            />
          </div>
          <ContactDetails ctx={ctx} lines={agency} address={agency.address} />
        </div>
        <section class="section" id="agents" aria-labelledby="agents-heading">
          <h2 id="agents-heading">{fill(t.agents_of, { name: agency.name })}</h2>
          {data.agents.agents.length > 0 ? (
            <ul class="profile-grid">
              {data.agents.agents.map((agent) => (
                <li key={agent.id}>
                  <AgentCard ctx={ctx} agent={agent} picture={data.agentPictures.get(agent.id)} headingLevel={3} showAgency={false} />
                </li>
              ))}
            </ul>
          ) : (
            <p class="muted">{t.no_agents}</p>
          )}
          <Pagination
            ctx={ctx}
            page={data.agents.pagination.current_page}
            totalPages={data.agents.pagination.total_pages}
            href={hrefs.agents}
            label={fill(t.agents_of, { name: agency.name })}
          />
        </section>
        <ListingsSection ctx={ctx} name={agency.name} listings={data.listings} href={hrefs.listings} />
        <div class="profile-columns">
          <ReviewsSection
            ctx={ctx}
            list={data.reviews}
            subjectName={agency.name}
            pageHref={hrefs.reviews}
            action={`${base}/reviews`}
            returnTo={`${base}#review-form`}
            form={forms.review}
          />
          <ContactForm ctx={ctx} name={agency.name} action={`${base}/contact`} form={forms.contact} />
        </div>
      </div>
    ),
  };
}
