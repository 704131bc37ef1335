import type { PropertyRecord, PropertySummaryRecord } from '../../../modules/properties/index.js';
import { Breadcrumbs } from '../../components/Breadcrumbs.js';
import { componentsText } from '../../components/components.text.js';
import { EMPTY_FORM, FormNotice, type FormState } from '../../components/Form.js';
import { ListingCard } from '../../components/ListingCard.js';
import type { PageContext } from '../../page.js';
import { listingPath } from '../../paths.js';
import { fill } from '../../texts.js';
import { AgentCard, type ListingContact } from './AgentCard.js';
import { CompareLink, FavoriteButton, ShareLinks } from './ListingActions.js';
import { Description, Details, Features, FloorPlans, Overview } from './ListingFacts.js';
import { ListingGallery, galleryImages } from './ListingGallery.js';
import { ListingMap, Tour, Video } from './ListingMedia.js';
import { ListingReviews, type ReviewAccess, type ReviewPage } from './ListingReviews.js';
import { ContactForm, type FormOutcome, ViewingForm } from './LeadForms.js';
import { addressLine, addressParts, isForLease, listingCrumbs } from './listing-seo.js';
import { listingText } from './listing.text.js';
import { type CalculatorState, MortgageCalculator } from './MortgageCalculator.js';

export interface ListingPageData {
  readonly listing: PropertyRecord;
  /** Published or sold: a page for everyone. Otherwise the owner's or a moderator's preview. */
  readonly isPublic: boolean;
  readonly contact: ListingContact;
  readonly reviews: ReviewPage;
  readonly reviewAccess: ReviewAccess;
  readonly similar: readonly PropertySummaryRecord[];
  readonly calculator: CalculatorState;
}

/** The page's three forms: what each was posted with and its errors after a failed post, and what each achieved. */
export interface ListingForms {
  readonly contact: FormState;
  readonly viewing: FormState;
  readonly review: FormState;
  readonly outcome: { readonly form: 'contact' | 'viewing' | 'review'; readonly outcome: FormOutcome } | null;
}

export const NO_FORMS: ListingForms = { contact: EMPTY_FORM, viewing: EMPTY_FORM, review: EMPTY_FORM, outcome: null };

const NOTHING: FormOutcome = { sent: false };

/** The words of a state that is not public, for the preview's notice. */
function stateName(t: (typeof listingText)['en'], status: PropertyRecord['status']): string {
  switch (status) {
    case 'draft':
      return t.state_draft;
    case 'pending':
      return t.state_pending;
    case 'on_hold':
      return t.state_on_hold;
    case 'disapproved':
      return t.state_disapproved;
    case 'expired':
      return t.state_expired;
    default:
      return status;
  }
}

/** The listing page (docs/site.md): a pure function of the listing's data, the visitor's forms and the context. */
export function ListingPage({ ctx, data, forms }: { ctx: PageContext; data: ListingPageData; forms: ListingForms }) {
  const t = listingText[ctx.lang];
  const { listing } = data;
  const path = listingPath(listing.slug);
  const outcomeOf = (form: 'contact' | 'viewing' | 'review') => (forms.outcome?.form === form ? forms.outcome.outcome : NOTHING);
  const price = ctx.format.price(listing) || componentsText[ctx.lang].price_on_request;
  const address = addressLine(addressParts(listing));
  const images = galleryImages(listing.gallery);
  const reference = listing.reference ? fill(t.reference_suffix, { reference: listing.reference }) : '';
  const takesLeads = data.isPublic;
  const showsCalculator = listing.price !== null && listing.price > 0 && listing.status !== 'sold' && !isForLease(listing);
  return (
    <article class="wrap listing" data-listing-id={listing.id}>
      <Breadcrumbs ctx={ctx} crumbs={listingCrumbs(ctx, listing)} />
      {!data.isPublic ? <FormNotice kind="error">{fill(t.preview_notice, { state: stateName(t, listing.status) })}</FormNotice> : null}
      <header class="listing__header">
        <div class="listing__badges">
          {listing.status === 'sold' ? <span class="badge badge--dark">{componentsText[ctx.lang].sold}</span> : null}
          {listing.featured ? <span class="badge badge--accent">{componentsText[ctx.lang].featured}</span> : null}
          {listing.property_status.map((term) => (
            <span key={term.id} class="badge badge--outline">
              {term.name}
            </span>
          ))}
          {listing.property_label.map((term) => (
            <span key={term.id} class="badge badge--outline">
              {term.name}
            </span>
          ))}
        </div>
        <h1 class="listing__title">
          <bdi>{listing.title}</bdi>
        </h1>
        {address ? (
          <p class="listing__address">
            <bdi>{address}</bdi>
          </p>
        ) : null}
        <p class={listing.status === 'sold' ? 'listing__price listing__price--sold' : 'listing__price'} data-price="">
          <bdi>{price}</bdi>
        </p>
        {listing.status === 'sold' ? <p class="listing__sold">{t.sold_notice}</p> : null}
        {listing.published_at ? <p class="muted">{fill(t.listed_on, { date: ctx.format.date(listing.published_at) })}</p> : null}
        {data.isPublic ? (
          <div class="listing__actions no-print">
            <FavoriteButton ctx={ctx} listingId={listing.id} isFavorite={listing.is_favorite} back={path} />
            <CompareLink ctx={ctx} listingId={listing.id} />
          </div>
        ) : null}
      </header>
      <ListingGallery ctx={ctx} title={listing.title} images={images} />
      <div class="listing__layout">
        <div class="listing__main">
          <Overview ctx={ctx} listing={listing} />
          <Description ctx={ctx} listing={listing} />
          <Details ctx={ctx} listing={listing} />
          <Features ctx={ctx} listing={listing} />
          <FloorPlans ctx={ctx} listing={listing} />
        </div>
        <aside class="listing__side" aria-label={t.contact_form}>
          <AgentCard ctx={ctx} contact={data.contact} />
          {takesLeads ? (
            <>
              <ContactForm
                ctx={ctx}
                action={ctx.path(`${path}/contact`)}
                form={forms.contact}
                outcome={outcomeOf('contact')}
                defaultMessage={fill(t.default_message, { title: listing.title, reference })}
              />
              {listing.status !== 'sold' ? (
                <ViewingForm ctx={ctx} action={ctx.path(`${path}/viewing`)} form={forms.viewing} outcome={outcomeOf('viewing')} />
              ) : null}
              <ShareLinks ctx={ctx} url={`${ctx.publicUrl}${ctx.path(path)}`} title={listing.title} />
            </>
          ) : null}
        </aside>
        <div class="listing__more">
          <Video ctx={ctx} listing={listing} />
          <Tour ctx={ctx} listing={listing} />
          <ListingMap ctx={ctx} listing={listing} address={address} />
          {showsCalculator ? (
            <MortgageCalculator ctx={ctx} currency={listing.currency} state={data.calculator} action={ctx.path(path)} />
          ) : null}
          {data.isPublic ? (
            <ListingReviews
              ctx={ctx}
              page={data.reviews}
              listingPath={path}
              access={data.reviewAccess}
              form={forms.review}
              outcome={outcomeOf('review')}
              signInPath={`/sign-in?next=${encodeURIComponent(`${path}#reviews`)}`}
            />
          ) : null}
        </div>
      </div>
      {data.similar.length > 0 ? (
        <section class="listing-block similar no-print" aria-labelledby="similar-heading">
          <h2 id="similar-heading">{t.similar}</h2>
          <ul class="card-grid">
            {data.similar.map((similar) => (
              <li key={similar.id}>
                <ListingCard ctx={ctx} listing={similar} />
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </article>
  );
}
