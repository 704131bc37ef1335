import type { AgentRecord } from '../../../modules/directory/index.js';
import type { MediaRecord } from '../../../modules/media/index.js';
import type { PropertyListRecord } from '../../../modules/properties/index.js';
import type { ReviewListRecord } from '../../../modules/reviews/index.js';
import { breadcrumbJsonLd, Breadcrumbs, type Crumb } from '../../components/Breadcrumbs.js';
import { RatingSummary, ReviewsSection, type ReviewFormState } from '../../components/Reviews.js';
import type { PageContext, RenderedPage } from '../../page.js';
import { agencyPath, agentPath } from '../../paths.js';
import { fill } from '../../texts.js';
import { directoryText } from './directory.text.js';
import { agentJsonLd, socialImageOf, titleWithName } from './directory-seo.js';
import { ListingsSection, profileHrefs, type ProfileQuery } from './listings-section.js';
import {
  ContactActions,
  ContactDetails,
  ContactForm,
  countOf,
  Filled,
  ProfileFacts,
  ProfileImage,
  type ContactFormState,
} from './profile-parts.js';

export interface AgentPageData {
  readonly agent: AgentRecord;
  readonly picture: MediaRecord | null;
  /** The page of its published listings, as GET /agents/{id}/properties answers it. */
  readonly listings: PropertyListRecord;
  /** The page of its reviews with the average and count, as GET /agents/{id}/reviews answers it. */
  readonly reviews: ReviewListRecord;
}

/** The forms of a profile page: as new, or as a failed post left them, or with the thanks of a sent one. */
export interface ProfileForms {
  readonly contact: ContactFormState;
  readonly review: ReviewFormState;
}

/** The agent page (`/agent/<slug>`, the record's `url`): head, body and JSON-LD. A pure function of its data. */
export function agentPage(ctx: PageContext, data: AgentPageData, forms: ProfileForms, query: ProfileQuery): RenderedPage {
  const t = directoryText[ctx.lang];
  const { agent } = data;
  const base = agentPath(agent.slug);
  const hrefs = profileHrefs(ctx, base, query);
  const crumbs: Crumb[] = [{ name: t.home, path: '/' }, { name: t.agents, path: '/agents' }, { name: agent.name }];
  const titleTemplate =
    hrefs.listingPage > 1 ? fill(t.page_suffix, { title: t.agent_title, page: ctx.format.number(hrefs.listingPage) }) : t.agent_title;
  const image = socialImageOf(data.picture, fill(t.picture_of, { name: agent.name }));
  const shown = { rating: data.reviews.rating, count: data.reviews.reviews_count };
  return {
    meta: {
      title: titleWithName(titleTemplate, agent.name, ctx.brand.siteName),
      description: fill(t.agent_description, { name: agent.name, site: ctx.brand.siteName }),
      canonical: hrefs.canonical,
      // A hidden agent is shown to the people who manage it only; another page of reviews and a thank-you repeat the page.
      noindex: !agent.visible || hrefs.isVariant,
      image,
      ogType: 'profile',
      jsonLd: [agentJsonLd(ctx, agent, `${ctx.publicUrl}${ctx.path(base)}`, image, shown), breadcrumbJsonLd(ctx, crumbs)],
    },
    body: (
      <div class="wrap profile-page">
        <Breadcrumbs ctx={ctx} crumbs={crumbs} />
        <header class="profile">
          <ProfileImage
            media={data.picture}
            name={agent.name}
            alt={fill(t.picture_of, { name: agent.name })}
            sizes="(min-width: 48em) 14rem, 9rem"
            priority
            className="profile__image"
          />
          <div class="profile__main">
            <h1 class="profile__name">{agent.name}</h1>
            {agent.position || agent.company ? (
              <p class="profile__role">
                {agent.position && agent.company
                  ? fill(t.position_at, { position: agent.position, company: agent.company })
                  : agent.position || agent.company}
              </p>
            ) : null}
            {agent.agency ? (
              <p class="profile__agency">
                <Filled template={t.agent_at} name="agency">
                  <a href={ctx.path(agencyPath(agent.agency.slug))}>{agent.agency.name}</a>
                </Filled>
              </p>
            ) : null}
            <p class="profile__stats">
              <RatingSummary ctx={ctx} rating={shown.rating} count={shown.count} />
              <span class="profile__count">
                {countOf(ctx, data.listings.pagination.total_records, 'properties_one', 'properties_other')}
              </span>
            </p>
          </div>
          <ContactActions ctx={ctx} lines={agent} />
        </header>
        <div class="profile-columns">
          <div>
            {agent.bio ? (
              <section class="section" aria-labelledby="profile-about">
                <h2 id="profile-about">{t.about}</h2>
                <p class="profile__bio">{agent.bio}</p>
              </section>
            ) : null}
            <ProfileFacts
              ctx={ctx}
              facts={[
                ['languages', agent.languages.join(', ')],
                ['service_areas', agent.service_areas],
                ['specialties', agent.specialties],
                ['categories', agent.categories.map((term) => term.name).join(', ')],
                ['cities', agent.cities.map((term) => term.name).join(', ')],
                ['license', agent.license],
              ]}
            />
          </div>
          <ContactDetails ctx={ctx} lines={agent} />
        </div>
        <ListingsSection ctx={ctx} name={agent.name} listings={data.listings} href={hrefs.listings} />
        <div class="profile-columns">
          <ReviewsSection
            ctx={ctx}
            list={data.reviews}
            subjectName={agent.name}
            pageHref={hrefs.reviews}
            action={`${base}/reviews`}
            returnTo={`${base}#review-form`}
            form={forms.review}
          />
          <ContactForm ctx={ctx} name={agent.name} action={`${base}/contact`} form={forms.contact} />
        </div>
      </div>
    ),
  };
}
