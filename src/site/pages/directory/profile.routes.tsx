import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type, type Static } from 'typebox';
import type { Language } from '../../../i18n/index.js';
import type { AuthUser } from '../../../lib/signed-in-user.js';
import { ContactBody } from '../../../modules/leads/index.js';
import { EMPTY_FORM } from '../../components/Form.js';
import { ReviewFormBody, reviewInputOf, reviewRefusalOf, type ReviewFormInput } from '../../components/Reviews.js';
import { fieldMessagesOf, postedValues } from '../../forms.js';
import type { PageContext, RenderedPage } from '../../page.js';
import { agencyPath, agentPath, localPath, withQuery } from '../../paths.js';
import type { Site } from '../../site.js';
import { PAGE_ROUTE, type SiteRoutes } from '../../site-routes.js';
import { AppError } from '../../../lib/errors.js';
import { agencyPage, type AgencyPageData } from './AgencyPage.js';
import { agentPage, type AgentPageData, type ProfileForms } from './AgentPage.js';
import { directoryText } from './directory.text.js';
import type { ProfileQuery } from './listings-section.js';

/** Listings a profile page shows at once (docs/site.md), as GET /agents/{id}/properties?per_page=20 pages them. */
const PROFILE_LISTINGS_PER_PAGE = 20;
const PROFILE_REVIEWS_PER_PAGE = 10;
const AGENCY_AGENTS_PER_PAGE = 12;

const SlugParams = Type.Object({ slug: Type.String({ minLength: 1 }) });
const PageNumber = Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000 }));
/** Unknown parameters (a campaign's `utm_source`) are let through: the page opens all the same. */
const ProfileQuerySchema = Type.Object(
  { page: PageNumber, reviews_page: PageNumber, agents_page: PageNumber, sent: Type.Optional(Type.Enum(['contact', 'review'])) },
  { additionalProperties: true },
);

/** The contact form as posted: the fields of POST /agents/{id}/contact, plus the CSRF token and the honeypot. */
const ContactFormBody = Type.Object(
  {
    ...ContactBody.properties,
    csrf: Type.Optional(Type.String({ maxLength: 200 })),
    website: Type.Optional(Type.String({ maxLength: 10_000 })),
  },
  { additionalProperties: false },
);
type ContactFormInput = Static<typeof ContactFormBody>;

/**
 * The field messages of a failed post, with "Please fill in this field." beside a field left empty (the rule says
 * "at least 1 character", which is not how a person reads an empty box).
 */
function messagesOf(error: unknown, values: Readonly<Record<string, string>>, lang: Language): Record<string, string> | undefined {
  const messages = fieldMessagesOf(error, lang);
  if (!messages) return undefined;
  const shown: Record<string, string> = { ...messages };
  for (const field of Object.keys(shown)) if ((values[field] ?? '').trim() === '') shown[field] = directoryText[lang].field_required;
  return shown;
}

const NEW_FORMS: ProfileForms = { contact: EMPTY_FORM, review: EMPTY_FORM };

/** An agent's or an agency's page: how its record is found and its lists loaded, and how it is rendered. */
interface ProfileKind<D> {
  /** The first segment of the record's `url` path. */
  readonly segment: 'agent' | 'agency';
  pathOf(slug: string): string;
  /** The id of the slug's record as the caller may see it (404 as the API's GET by id): a form's target. */
  idOf(site: Site, caller: AuthUser | null, slug: string): Promise<number>;
  /** The record of the slug (404 as the API's GET by id) and its page's lists. */
  load(site: Site, caller: AuthUser | null, slug: string, query: ProfileQuery, lang: Language): Promise<D>;
  render(ctx: PageContext, data: D, forms: ProfileForms, query: ProfileQuery): RenderedPage;
}

const AGENT: ProfileKind<AgentPageData> = {
  segment: 'agent',
  pathOf: agentPath,
  idOf: async (site, caller, slug) => (await site.services.agents.bySlug(caller, slug)).agent.id,
  async load(site, caller, slug, query, lang) {
    const { agents, reviews } = site.services;
    const { agent, picture } = await agents.bySlug(caller, slug);
    const [listings, reviewPage] = await Promise.all([
      agents.properties(caller, agent.id, { page: query.page ?? 1, per_page: PROFILE_LISTINGS_PER_PAGE }),
      reviews.list(caller, { type: 'agent', id: agent.id }, { page: query.reviews_page ?? 1, per_page: PROFILE_REVIEWS_PER_PAGE }, lang),
    ]);
    return { agent, picture, listings, reviews: reviewPage };
  },
  render: agentPage,
};

const AGENCY: ProfileKind<AgencyPageData> = {
  segment: 'agency',
  pathOf: agencyPath,
  idOf: async (site, _caller, slug) => (await site.services.agencies.bySlug(slug)).agency.id,
  async load(site, caller, slug, query, lang) {
    const { agents, agencies, reviews } = site.services;
    const { agency, logo } = await agencies.bySlug(slug);
    const [agentPage, listings, reviewPage] = await Promise.all([
      // Visible agents only, whoever asks: the public list of GET /agents/search?agency_id=.
      agents.search({ agency_id: agency.id, page: query.agents_page ?? 1, per_page: AGENCY_AGENTS_PER_PAGE }),
      agencies.properties(caller, agency.id, { page: query.page ?? 1, per_page: PROFILE_LISTINGS_PER_PAGE }),
      reviews.list(caller, { type: 'agency', id: agency.id }, { page: query.reviews_page ?? 1, per_page: PROFILE_REVIEWS_PER_PAGE }, lang),
    ]);
    const agentPictures = await agents.picturesOf(agentPage.agents.map((agent) => agent.id));
    return { agency, logo, agents: agentPage, agentPictures, listings, reviews: reviewPage };
  },
  render: agencyPage,
};

/** `/agent/<slug>` and `/agency/<slug>`: the pages, their contact and review forms, and the trailing-slash redirects. */
export const profileRoutes: SiteRoutes = (scope, site, lang) => {
  for (const kind of [AGENT, AGENCY] as ProfileKind<unknown>[]) registerProfile(scope, site, lang, kind);
};

function registerProfile<D>(scope: Parameters<SiteRoutes>[0], site: Site, lang: Language, kind: ProfileKind<D>) {
  const { leads, reviews } = site.services;
  const formRoute = {
    ...PAGE_ROUTE,
    config: { ...PAGE_ROUTE.config, rateLimit: site.settings.rateLimits.forms },
    attachValidation: true,
  };

  scope.get(
    `/${kind.segment}/:slug`,
    { ...PAGE_ROUTE, schema: { ...PAGE_ROUTE.schema, params: SlugParams, querystring: ProfileQuerySchema } },
    (request, reply) =>
      site.page(request, reply, lang, async (ctx) => {
        const query = request.query as Static<typeof ProfileQuerySchema>;
        const { slug } = request.params as Static<typeof SlugParams>;
        const data = await kind.load(site, ctx.visitor?.caller ?? null, slug, query, lang);
        const forms: ProfileForms = {
          contact: { ...EMPTY_FORM, sent: query.sent === 'contact' },
          review: { ...EMPTY_FORM, sent: query.sent === 'review' },
        };
        return kind.render(ctx, data, forms, query);
      }),
  );

  // The record's `url` has no trailing slash: one more is the same page, said once (301, the query kept).
  scope.get(`/${kind.segment}/:slug/`, { ...PAGE_ROUTE, schema: { ...PAGE_ROUTE.schema, params: SlugParams } }, (request, reply) => {
    const query = request.url.includes('?') ? request.url.slice(request.url.indexOf('?')) : '';
    const { slug } = request.params as Static<typeof SlugParams>;
    return reply.redirect(`${localPath(lang, kind.pathOf(slug))}${query}`, 301);
  });

  /** A failed post: the page again with the form as it was posted and its messages, with the post's status. */
  const failed = async (
    request: FastifyRequest<{ Params: Static<typeof SlugParams> }>,
    reply: FastifyReply,
    caller: AuthUser | null,
    status: number,
    forms: ProfileForms,
  ) => {
    const data = await kind.load(site, caller, request.params.slug, {}, lang);
    return site.formPage(request, reply, lang, (ctx) => ({ ...kind.render(ctx, data, forms, {}), status }));
  };

  scope.post<{ Params: Static<typeof SlugParams>; Body: ContactFormInput }>(
    `/${kind.segment}/:slug/contact`,
    { ...formRoute, schema: { ...PAGE_ROUTE.schema, params: SlugParams, body: ContactFormBody } },
    async (request, reply) => {
      const { caller, isBot } = await site.checkPost(request, reply);
      const thanks = `${withQuery(kind.pathOf(request.params.slug), { sent: 'contact' })}#contact`;
      if (isBot) return site.seeOther(reply, lang, thanks);
      const values = postedValues(request.body);
      const invalid = (errors: Record<string, string>) =>
        failed(request, reply, caller, 400, { ...NEW_FORMS, contact: { values, errors } });
      if (request.validationError) return invalid(messagesOf(request.validationError, values, lang) ?? {});
      const id = await kind.idOf(site, caller, request.params.slug);
      const { csrf: _csrf, website: _website, ...input } = request.body;
      try {
        await leads.contact(caller, { type: kind.segment, id }, input, lang);
      } catch (error) {
        const messages = messagesOf(error, values, lang);
        if (!messages) throw error;
        return invalid(messages);
      }
      return site.seeOther(reply, lang, thanks);
    },
  );

  scope.post<{ Params: Static<typeof SlugParams>; Body: ReviewFormInput }>(
    `/${kind.segment}/:slug/reviews`,
    { ...formRoute, schema: { ...PAGE_ROUTE.schema, params: SlugParams, body: ReviewFormBody } },
    async (request, reply) => {
      const { caller, isBot } = await site.checkPost(request, reply);
      // The form is shown to signed-in visitors only; the API's POST …/reviews is a 401 without a session too.
      if (!caller) throw new AppError('unauthorized');
      const thanks = `${withQuery(kind.pathOf(request.params.slug), { sent: 'review' })}#reviews`;
      if (isBot) return site.seeOther(reply, lang, thanks);
      const values = postedValues(request.body);
      const again = (status: number, review: ProfileForms['review']) => failed(request, reply, caller, status, { ...NEW_FORMS, review });
      if (request.validationError) return again(400, { values, errors: messagesOf(request.validationError, values, lang) ?? {} });
      const id = await kind.idOf(site, caller, request.params.slug);
      try {
        await reviews.create(caller, { type: kind.segment, id }, reviewInputOf(request.body), lang);
      } catch (error) {
        const refused = reviewRefusalOf(error);
        if (refused) return again(refused.status, { values, errors: {}, refusal: refused.refusal });
        const messages = messagesOf(error, values, lang);
        if (!messages) throw error;
        return again(400, { values, errors: messages });
      }
      return site.seeOther(reply, lang, thanks);
    },
  );
}
