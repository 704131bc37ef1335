import type { FastifyReply, FastifyRequest } from 'fastify';
import { type Language, translate } from '../../../i18n/index.js';
import { AppError } from '../../../lib/errors.js';
import type { AuthUser } from '../../../lib/signed-in-user.js';
import type { PropertyRecord } from '../../../modules/properties/index.js';
import type { FormState } from '../../components/Form.js';
import { pictureSource } from '../../components/Picture.js';
import { type FieldMessages, fieldMessagesOf, postedValues } from '../../forms.js';
import type { AssetName } from '../../assets.js';
import type { PageContext, RenderedPage } from '../../page.js';
import { listingPath, localPath } from '../../paths.js';
import type { Site } from '../../site.js';
import { PAGE_ROUTE, type SiteRoutes } from '../../site-routes.js';
import { listingPageData } from './listing-data.js';
import {
  calculatorOf,
  ContactFormBody,
  type ContactFormInput,
  ListingParams,
  ListingQuery,
  type ListingQueryInput,
  ReviewFormBody,
  type ReviewFormInput,
  reviewsPageOf,
  sentFormOf,
  viewingDateMessages,
  ViewingFormBody,
  type ViewingFormInput,
  viewingMessage,
  withRequiredBlanks,
} from './listing-forms.js';
import { isForLease, listingMeta } from './listing-seo.js';
import { listingText } from './listing.text.js';
import { galleryImages, LEAD_SIZES } from './ListingGallery.js';
import { type ListingForms, ListingPage, type ListingPageData, NO_FORMS } from './ListingPage.js';

/** A failed form post answers the page again with its errors beside the fields. */
const FORM_ERRORS_STATUS = 422;

type SlugRequest = FastifyRequest<{ Params: { slug: string }; Querystring: ListingQueryInput }>;

/** The islands a listing page loads: only those whose block it shows. */
function scriptsOf(ctx: PageContext, listing: PropertyRecord): AssetName[] {
  const scripts: AssetName[] = [];
  if (galleryImages(listing.gallery).length > 0) scripts.push('gallery.js');
  if (listing.address.latitude !== null && listing.address.longitude !== null) scripts.push('listing-map.js');
  if (listing.price !== null && listing.price > 0 && listing.status !== 'sold' && !isForLease(listing)) scripts.push('calculator.js');
  if (ctx.visitor) scripts.push('favorite.js');
  return scripts;
}

/** The listing page as rendered: its head (SEO, islands, the first picture preloaded) and its body. */
function listingRendered(ctx: PageContext, data: ListingPageData, forms: ListingForms, status?: number): RenderedPage {
  const first = galleryImages(data.listing.gallery)[0];
  const source = first && pictureSource(first);
  return {
    ...(status !== undefined ? { status } : {}),
    meta: {
      ...listingMeta(ctx, data.listing, data.isPublic),
      scripts: scriptsOf(ctx, data.listing),
      preloadImage: source ? { href: source.src, srcset: source.srcset, sizes: LEAD_SIZES } : null,
    },
    body: <ListingPage ctx={ctx} data={data} forms={forms} />,
    listingId: data.listing.id,
  };
}

/** A permanent redirect that a CDN may hold briefly (a slug may change again), in the request's language. */
function movedPermanently(site: Site, reply: FastifyReply, lang: Language, plainPath: string, search: string) {
  const { sharedMaxAgeSeconds } = site.settings;
  return reply
    .code(301)
    .header('cache-control', `public, max-age=${sharedMaxAgeSeconds}, s-maxage=${sharedMaxAgeSeconds}`)
    .redirect(`${localPath(lang, plainPath)}${search}`, 301);
}

const searchOf = (url: string) => {
  const at = url.indexOf('?');
  return at === -1 ? '' : url.slice(at);
};

/**
 * `/property/:slug`: the listing page (docs/site.md). A former slug answers 301 to the current one, a trailing
 * slash (WordPress's permalinks) 301 to the path without it; a listing the visitor may not see is the 404 page.
 * Its three forms post to `/property/:slug/{contact,viewing,reviews}` and come back to it (303) with a thank-you.
 */
export const listingRoutes: SiteRoutes = (scope, site, lang) => {
  const { properties, leads, reviews } = site.services;
  const formRoute = {
    ...PAGE_ROUTE,
    config: { ...PAGE_ROUTE.config, rateLimit: site.settings.rateLimits.forms },
    attachValidation: true,
  } as const;

  /** The listing a page or a post names, as the visitor may see it; a former slug is followed. */
  async function listingAt(caller: AuthUser | null, slug: string): Promise<PropertyRecord> {
    const found = await properties.findBySlug(caller, slug);
    if ('record' in found) return found.record;
    const moved = await properties.findBySlug(caller, found.movedTo);
    if ('record' in moved) return moved.record;
    throw AppError.notFound();
  }

  scope.get(
    '/property/:slug',
    { ...PAGE_ROUTE, schema: { ...PAGE_ROUTE.schema, params: ListingParams, querystring: ListingQuery } },
    async (request: SlugRequest, reply) => {
      const caller = await site.callerOf(request, reply);
      const found = await properties.findBySlug(caller, request.params.slug);
      if ('movedTo' in found) return movedPermanently(site, reply, lang, listingPath(found.movedTo), searchOf(request.url));
      const { record } = found;
      const sent = sentFormOf(request.query);
      return site.page(request, reply, lang, async (ctx) => {
        const data = await listingPageData(site.services, ctx.visitor?.caller ?? null, lang, record, {
          reviewsPage: reviewsPageOf(request.query),
          calculator: calculatorOf(request.query, record.price, lang),
        });
        const forms: ListingForms = sent ? { ...NO_FORMS, outcome: { form: sent, outcome: { sent: true } } } : NO_FORMS;
        return listingRendered(ctx, data, forms);
      });
    },
  );

  scope.get('/property/:slug/', { ...PAGE_ROUTE, schema: { ...PAGE_ROUTE.schema, params: ListingParams } }, (request: SlugRequest, reply) =>
    movedPermanently(site, reply, lang, listingPath(request.params.slug), searchOf(request.url)),
  );

  /** The page again after a failed post: the form with what was typed and its messages, the others empty. */
  async function failed(
    request: FastifyRequest,
    reply: FastifyReply,
    caller: AuthUser | null,
    listing: PropertyRecord,
    which: 'contact' | 'viewing' | 'review',
    form: FormState,
    error?: string,
  ) {
    const data = await listingPageData(site.services, caller, lang, listing, {
      reviewsPage: 1,
      calculator: calculatorOf({}, listing.price, lang),
    });
    const forms: ListingForms = {
      ...NO_FORMS,
      [which]: form,
      outcome: { form: which, outcome: { sent: false, error: error ?? listingText[lang].form_failed } },
    };
    return site.formPage(request, reply, lang, (ctx) => listingRendered(ctx, data, forms, FORM_ERRORS_STATUS));
  }

  /** The messages of a failed post: its schema's, blank required fields said plainly, and any the page adds. */
  const messagesOf = (request: FastifyRequest, required: readonly string[], extra: FieldMessages = {}): FieldMessages | undefined => {
    const schema = request.validationError ? (fieldMessagesOf(request.validationError, lang) ?? {}) : {};
    const messages = { ...withRequiredBlanks(schema, request.body, required, lang), ...extra };
    return Object.keys(messages).length > 0 ? messages : undefined;
  };

  const thanks = (reply: FastifyReply, listing: PropertyRecord, form: 'contact' | 'viewing' | 'review') =>
    site.seeOther(reply, lang, `${listingPath(listing.slug)}?sent=${form}#${form === 'review' ? 'reviews' : form}`);

  /** A lead about the listing, through the leads service exactly as POST /properties/{id}/contact makes it. */
  async function sendLead(
    request: FastifyRequest,
    reply: FastifyReply,
    caller: AuthUser | null,
    listing: PropertyRecord,
    which: 'contact' | 'viewing',
    input: ContactFormInput,
  ) {
    try {
      await leads.contact(
        caller,
        { type: 'property', id: listing.id },
        {
          name: input.name,
          email: input.email,
          ...(input.phone ? { phone: input.phone } : {}),
          message: input.message,
          user_type: input.user_type ?? 'other',
        },
        lang,
      );
    } catch (error) {
      const messages = fieldMessagesOf(error, lang);
      if (!messages) throw error;
      return failed(request, reply, caller, listing, which, { values: postedValues(request.body), errors: messages });
    }
    return thanks(reply, listing, which);
  }

  scope.post(
    '/property/:slug/contact',
    { ...formRoute, schema: { ...PAGE_ROUTE.schema, params: ListingParams, body: ContactFormBody } },
    async (request: FastifyRequest<{ Params: { slug: string }; Body: ContactFormInput }>, reply) => {
      const { caller, isBot } = await site.checkPost(request, reply);
      const listing = await listingAt(caller, request.params.slug);
      if (isBot) return thanks(reply, listing, 'contact');
      const messages = messagesOf(request, ['name', 'email', 'message']);
      if (messages) return failed(request, reply, caller, listing, 'contact', { values: postedValues(request.body), errors: messages });
      return sendLead(request, reply, caller, listing, 'contact', request.body);
    },
  );

  scope.post(
    '/property/:slug/viewing',
    { ...formRoute, schema: { ...PAGE_ROUTE.schema, params: ListingParams, body: ViewingFormBody } },
    async (request: FastifyRequest<{ Params: { slug: string }; Body: ViewingFormInput }>, reply) => {
      const { caller, isBot } = await site.checkPost(request, reply);
      const listing = await listingAt(caller, request.params.slug);
      if (isBot) return thanks(reply, listing, 'viewing');
      const date = typeof request.body?.date === 'string' ? request.body.date : '';
      const messages = messagesOf(request, ['name', 'email', 'date'], request.validationError ? {} : viewingDateMessages(date, lang));
      if (messages) return failed(request, reply, caller, listing, 'viewing', { values: postedValues(request.body), errors: messages });
      const input = request.body;
      return sendLead(request, reply, caller, listing, 'viewing', { ...input, message: viewingMessage(input, lang) });
    },
  );

  scope.post(
    '/property/:slug/reviews',
    { ...formRoute, schema: { ...PAGE_ROUTE.schema, params: ListingParams, body: ReviewFormBody } },
    async (request: FastifyRequest<{ Params: { slug: string }; Body: ReviewFormInput }>, reply) => {
      const { caller, isBot } = await site.checkPost(request, reply);
      const listing = await listingAt(caller, request.params.slug);
      if (!caller) return site.seeOther(reply, lang, `/sign-in?next=${encodeURIComponent(`${listingPath(listing.slug)}#reviews`)}`);
      if (isBot) return thanks(reply, listing, 'review');
      const values = postedValues(request.body);
      const messages = messagesOf(request, ['rating', 'content']);
      if (messages) return failed(request, reply, caller, listing, 'review', { values, errors: messages });
      const { rating, title, content } = request.body;
      try {
        await reviews.create(
          caller,
          { type: 'property', id: listing.id },
          { rating: Number(rating), ...(title ? { title } : {}), content },
          lang,
        );
      } catch (error) {
        const fields = fieldMessagesOf(error, lang);
        if (fields) return failed(request, reply, caller, listing, 'review', { values, errors: fields });
        // One review per visitor, none of one's own listing: said above the form, which keeps what was typed.
        if (error instanceof AppError && (error.code === 'already_reviewed' || error.code === 'forbidden')) {
          return failed(
            request,
            reply,
            caller,
            listing,
            'review',
            { values, errors: {} },
            translate(lang, error.messageKey, error.messageParams),
          );
        }
        throw error;
      }
      return thanks(reply, listing, 'review');
    },
  );
};
