import './explore.css';
import { useOne } from '@refinedev/core';
import { lazy, type ReactNode, Suspense, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useParams } from 'react-router';
import { ErrorNotice, Forbidden, isForbidden, Loading, PageHeader } from '../../components/ui';
import { descriptionParagraphs, galleryOf, imageUrl } from './format';
import type { Listing, Media } from './types';
import { formatBedrooms, formatListingPrice, formatNumber } from '../../format';

const ListingPinMap = lazy(() => import('../../map/ListingPinMap'));

/** One listing as the public sees it (GET /properties/{id}): photos, key facts, place, features, contacts, text. */
export default function ListingPage() {
  const { t, i18n } = useTranslation();
  const { id } = useParams();
  const location = useLocation();
  const from = (location.state as { from?: string } | null)?.from ?? '';
  const { query, result: listing } = useOne<Listing>({
    resource: 'explore-properties',
    id: id ?? '',
    queryOptions: { enabled: Boolean(id) },
    errorNotification: false,
  });
  const back = (
    <Link to={`/explore${from}`} className="explore-back">
      {t('explore.back_to_results')}
    </Link>
  );

  if (isForbidden(query.error)) return <Forbidden />;
  if (query.isLoading) return <Loading />;
  if (query.error || !listing) {
    const missing = query.error?.statusCode === 404;
    return (
      <section>
        <PageHeader title={t('explore.title')}>{back}</PageHeader>
        {missing ? <p role="alert">{t('explore.not_found')}</p> : <ErrorNotice error={query.error} onRetry={() => void query.refetch()} />}
      </section>
    );
  }

  const number = (value: number) => formatNumber(value, i18n.language);
  const area = (value: number | null, unit: 'sqft' | 'm2') =>
    value === null ? null : t(unit === 'm2' ? 'explore.size_m2' : 'explore.size_sqft', { value: number(value) });
  const names = (terms: { name: string }[]) => (terms.length ? terms.map((term) => term.name).join(', ') : null);
  const facts: [string, ReactNode][] = (
    [
      ['price', <bdi key="price">{formatListingPrice(listing, i18n.language, {}, t) ?? t('common.price_on_request')}</bdi>],
      ['type', names(listing.property_type)],
      ['status', names(listing.property_status)],
      ['label', names(listing.property_label)],
      ['bedrooms', listing.bedrooms !== null ? formatBedrooms(listing.bedrooms, i18n.language, t) : null],
      ['bathrooms', listing.bathrooms !== null ? number(listing.bathrooms) : null],
      ['rooms', listing.rooms !== null ? number(listing.rooms) : null],
      ['garage', listing.garage !== null ? number(listing.garage) : null],
      ['size', area(listing.size, listing.size_unit)],
      ['land_size', area(listing.land_size, listing.land_size_unit)],
      ['year_built', listing.year_built !== null ? String(listing.year_built) : null],
      ['reference', listing.reference || null],
    ] as [string, ReactNode][]
  ).filter(([, value]) => value !== null && value !== '');
  const { address } = listing;
  const place = [address.address, address.area?.name, address.city?.name, address.zipcode, address.state?.name, address.country?.name]
    .filter(Boolean)
    .join(', ');
  const hasPin = address.latitude !== null && address.longitude !== null;

  return (
    <article className="explore-listing">
      <PageHeader title={listing.title}>{back}</PageHeader>
      {listing.status !== 'publish' ? <p className="notice">{t('explore.listing_state', { state: listing.status })}</p> : null}
      <div className="explore-listing-top">
        <Gallery title={listing.title} images={galleryOf(listing.featured_image, listing.gallery)} />
        <section aria-labelledby="explore-facts">
          <h2 id="explore-facts">{t('explore.key_facts')}</h2>
          <dl className="explore-facts">
            {facts.map(([key, value]) => (
              <div key={key}>
                <dt>{t(`explore.${key}`)}</dt>
                <dd>{value}</dd>
              </div>
            ))}
          </dl>
        </section>
      </div>

      <Description html={listing.description} excerpt={listing.excerpt} />

      {listing.features.length ? (
        <section aria-labelledby="explore-features">
          <h2 id="explore-features">{t('explore.features')}</h2>
          <ul className="explore-tags">
            {listing.features.map((feature) => (
              <li key={feature.id} className="tag">
                {feature.name}
              </li>
            ))}
          </ul>
        </section>
      ) : null}

      {listing.additional_features?.length ? (
        <section aria-labelledby="explore-more">
          <h2 id="explore-more">{t('explore.more_details')}</h2>
          <dl className="explore-facts">
            {listing.additional_features.map((item, index) => (
              <div key={index}>
                <dt>{item.title}</dt>
                <dd>{item.value}</dd>
              </div>
            ))}
          </dl>
        </section>
      ) : null}

      <section aria-labelledby="explore-location">
        <h2 id="explore-location">{t('explore.location')}</h2>
        <p>
          <strong>{t('explore.address')}:</strong> {place || '—'}
        </p>
        {hasPin ? (
          <Suspense fallback={<p className="muted">{t('explore.map_loading')}</p>}>
            <ListingPinMap latitude={address.latitude!} longitude={address.longitude!} label={t('explore.location_map')} />
          </Suspense>
        ) : (
          <p className="muted">{t('explore.no_location')}</p>
        )}
      </section>

      <Contacts listing={listing} />
    </article>
  );
}

/** The photos: the chosen one large, and a button per photo to choose it. */
function Gallery({ title, images }: { title: string; images: Media[] }) {
  const { t } = useTranslation();
  const [index, setIndex] = useState(0);
  const current = images[Math.min(index, images.length - 1)];
  if (!current) return <div className="explore-gallery-empty muted">{t('explore.no_photo')}</div>;
  return (
    <section className="explore-gallery" aria-labelledby="explore-photos">
      <h2 id="explore-photos" className="visually-hidden">
        {t('explore.photos')}
      </h2>
      <img className="explore-gallery-main" src={imageUrl(current, 'large')} alt={current.alt || t('explore.photo_alt', { title })} />
      {images.length > 1 ? (
        <ul className="explore-gallery-thumbs">
          {images.map((image, position) => (
            <li key={image.id}>
              <button
                type="button"
                aria-pressed={image === current}
                aria-label={t('explore.show_photo', { number: position + 1, total: images.length })}
                onClick={() => setIndex(position)}
              >
                <img src={imageUrl(image, 'thumbnail')} alt="" width={72} height={72} loading="lazy" />
              </button>
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}

/**
 * The description as text paragraphs. The API sanitizes the description's HTML; the console reads the text of
 * each paragraph from it (format.ts, an inert DOMParser document) and renders it as text, never as HTML.
 */
function Description({ html, excerpt }: { html: string; excerpt: string }) {
  const { t } = useTranslation();
  const paragraphs = useMemo(() => {
    const text = descriptionParagraphs(html ?? '');
    return text.length ? text : excerpt ? [excerpt] : [];
  }, [html, excerpt]);
  if (!paragraphs.length) return null;
  return (
    <section aria-labelledby="explore-description">
      <h2 id="explore-description">{t('explore.description')}</h2>
      {paragraphs.map((paragraph, index) => (
        <p key={index}>{paragraph}</p>
      ))}
    </section>
  );
}

/** Whom to contact, as the listing's `agent_display` says: its agents, its agency, or whoever listed it. */
function Contacts({ listing }: { listing: Listing }) {
  const { t } = useTranslation();
  const people =
    listing.agent_display === 'agent_info'
      ? listing.agents
      : listing.agent_display === 'agency_info' && listing.agency
        ? [listing.agency]
        : [];
  const heading =
    listing.agent_display === 'agent_info'
      ? t('explore.agents')
      : listing.agent_display === 'agency_info'
        ? t('explore.agency')
        : t('explore.listed_by');
  if (listing.agent_display === 'none') return null;
  return (
    <section aria-labelledby="explore-contact">
      <h2 id="explore-contact">{t('explore.contact')}</h2>
      <h3>{heading}</h3>
      <ul className="explore-contacts">
        {people.map((person) => (
          <li key={person.id} className="card">
            <strong>{person.name}</strong>
            {person.phone ? (
              <span>
                {t('explore.phone')}: <a href={`tel:${person.phone.replace(/[^+\d]/g, '')}`}>{person.phone}</a>
              </span>
            ) : null}
            {person.email ? (
              <span>
                {t('explore.email')}: <a href={`mailto:${person.email}`}>{person.email}</a>
              </span>
            ) : null}
          </li>
        ))}
        {listing.agent_display === 'author_info' && listing.author ? (
          <li className="card">
            <strong>{listing.author.display_name}</strong>
          </li>
        ) : null}
        {listing.agent_display === 'agent_info' && listing.agency ? (
          <li className="card">
            <span className="muted">{t('explore.agency')}</span>
            <strong>{listing.agency.name}</strong>
            {listing.agency.phone ? <a href={`tel:${listing.agency.phone.replace(/[^+\d]/g, '')}`}>{listing.agency.phone}</a> : null}
          </li>
        ) : null}
      </ul>
    </section>
  );
}
