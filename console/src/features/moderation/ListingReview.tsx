import type { AnswerData } from '@realty-api/client';
import { useCustom, useOne } from '@refinedev/core';
import { lazy, Suspense, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { DataTable, ErrorNotice, Forbidden, isForbidden, Loading, NotFound, PageHeader } from '../../components/ui';
import { formatBedrooms, formatDateTime, formatListingPrice, formatNumber } from '../../format';
import type { ListingRecord } from '../listings/types';
import { DisapproveDialog, ReportRegions, type Target, useModeration } from './actions';
import { placeOf, QUEUE_RESOURCE } from './queue';
import './moderation.css';

const ListingPinMap = lazy(() => import('../../map/ListingPinMap'));

/** The full record (GET /properties/{id}): everything a moderator checks. */
type ReviewedListing = ListingRecord;

/** The sanitized description as plain text: parsed in an inert document (no script runs, nothing loads). */
function plainText(html: string | undefined): string {
  if (!html) return '';
  const body = new DOMParser().parseFromString(html, 'text/html').body;
  // Paragraphs, items and line breaks keep their breaks (shown with `white-space: pre-line`).
  for (const element of body.querySelectorAll('br, p, li, div, h1, h2, h3, h4, h5, h6, blockquote, tr')) {
    element.after(body.ownerDocument.createTextNode('\n'));
  }
  return (body.textContent ?? '').replace(/\n{3,}/g, '\n\n').trim();
}

/** One listing as a moderator reviews it: photos, price, place, text, its state history; approve or disapprove. */
export default function ListingReview() {
  const { t, i18n } = useTranslation();
  const id = Number(useParams().id);
  const { query, result: listing } = useOne<ReviewedListing>({
    resource: QUEUE_RESOURCE,
    id,
    queryOptions: { enabled: Number.isInteger(id) && id > 0, retry: false },
    errorNotification: false,
  });
  const history = useCustom<AnswerData<'/realty-api/v1/properties/{id}/history', 'get'>>({
    url: `/properties/${id}/history`,
    method: 'get',
    queryOptions: { enabled: Number.isInteger(id) && id > 0, retry: false },
    errorNotification: false,
  });
  const moderation = useModeration();
  const { busy, report } = moderation;
  // After a move, the listing's state and history are read again.
  const run = (...args: Parameters<typeof moderation.run>) =>
    moderation.run(...args).finally(() => {
      void query.refetch();
      void history.query.refetch();
    });
  const [disapproving, setDisapproving] = useState<Target[] | null>(null);
  const text = useMemo(() => plainText(listing?.description), [listing?.description]);

  if (!Number.isInteger(id) || id <= 0 || query.error?.statusCode === 404) return <NotFound />;
  if (isForbidden(query.error)) return <Forbidden />;
  if (query.isLoading) return <Loading />;
  if (!listing) return <ErrorNotice error={query.error} onRetry={() => void query.refetch()} />;

  const target = { id: listing.id, title: listing.title };
  const images = listing.gallery?.length ? listing.gallery : listing.featured_image ? [listing.featured_image] : [];
  const canApprove = listing.status === 'pending' || listing.status === 'disapproved';
  const canDisapprove = listing.status === 'pending' || listing.status === 'publish';
  const date = (value: string) => formatDateTime(value, i18n.language);
  const stateName = (state: string | null) =>
    state === null ? t('moderation.created') : t(`common.listing_state_${state}`, { defaultValue: state });
  const number = (value: number | null | undefined) => (value === null || value === undefined ? null : formatNumber(value, i18n.language));
  const area = (value: number | null | undefined, unit: string | undefined) =>
    value === null || value === undefined ? null : `${formatNumber(value, i18n.language)} ${t(`listings.unit_${unit ?? 'sqft'}`)}`;
  const names = (terms: readonly { name: string }[] | undefined) => (terms?.length ? terms.map((term) => term.name).join(', ') : null);
  // Every field of the listing a moderator judges, the empty ones said to be empty: what is missing matters too.
  const details: [label: string, value: string | null][] = [
    [t('listings.terms_types'), names(listing.property_type)],
    [t('listings.terms_statuses'), names(listing.property_status)],
    [t('listings.terms_labels'), names(listing.property_label)],
    [
      t('listings.bedrooms'),
      listing.bedrooms === null || listing.bedrooms === undefined ? null : formatBedrooms(listing.bedrooms, i18n.language, t),
    ],
    [t('listings.bathrooms'), number(listing.bathrooms)],
    [t('listings.rooms'), number(listing.rooms)],
    [t('listings.garage'), number(listing.garage)],
    [t('listings.garage_size'), listing.garage_size || null],
    [t('listings.size'), area(listing.size, listing.size_unit)],
    [t('listings.land_size'), area(listing.land_size, listing.land_size_unit)],
    [t('listings.year_built'), listing.year_built === null || listing.year_built === undefined ? null : String(listing.year_built)],
    [t('listings.terms_features'), names(listing.features)],
    [
      t('listings.address'),
      [listing.address?.address, listing.address?.area?.name, listing.address?.zipcode].filter(Boolean).join(', ') || null,
    ],
    [t('listings.agents'), names(listing.agents?.map((agent) => ({ name: agent.name })))],
    [t('listings.video_url'), listing.video_url || null],
    [t('listings.virtual_tour'), listing.virtual_tour || null],
  ];
  const position =
    listing.address?.latitude !== null &&
    listing.address?.latitude !== undefined &&
    listing.address.longitude !== null &&
    listing.address.longitude !== undefined
      ? { latitude: listing.address.latitude, longitude: listing.address.longitude }
      : null;

  return (
    <article className="moderation-review">
      <p>
        <Link to="/moderation">{t('moderation.back')}</Link>
      </p>
      <PageHeader title={listing.title}>
        <button type="button" className="primary" disabled={busy || !canApprove} onClick={() => void run('approve', [target])}>
          {t('moderation.approve')}
        </button>
        <button type="button" className="danger" disabled={busy || !canDisapprove} onClick={() => setDisapproving([target])}>
          {t('moderation.disapprove')}
        </button>
      </PageHeader>
      <ReportRegions report={report} />
      <dl className="moderation-facts">
        <dt>{t('moderation.state')}</dt>
        <dd>
          <span className="tag">{stateName(listing.status)}</span>
        </dd>
        <dt>{t('moderation.author')}</dt>
        <dd>{listing.author?.display_name || t('moderation.no_author')}</dd>
        <dt>{t('moderation.submitted')}</dt>
        <dd>{date(listing.created_at)}</dd>
        {listing.reference ? (
          <>
            <dt>{t('moderation.reference')}</dt>
            <dd>{listing.reference}</dd>
          </>
        ) : null}
        {listing.price != null && listing.currency ? (
          <>
            <dt>{t('moderation.price')}</dt>
            <dd>
              <bdi>{formatListingPrice({ ...listing, price: listing.price, currency: listing.currency }, i18n.language, {}, t)}</bdi>
            </dd>
          </>
        ) : null}
        {placeOf(listing) ? (
          <>
            <dt>{t('moderation.place')}</dt>
            <dd>{placeOf(listing)}</dd>
          </>
        ) : null}
      </dl>
      {images.length > 0 ? (
        <ul className="moderation-gallery" aria-label={t('moderation.photos')}>
          {images.map((image, index) => (
            <li key={`${image.url}-${index}`}>
              <img src={image.sizes?.medium?.url ?? image.url} alt={image.alt ?? ''} loading="lazy" />
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted">{t('moderation.no_photo')}</p>
      )}
      <section>
        <h2>{t('moderation.details')}</h2>
        <dl className="moderation-facts moderation-details">
          {details.map(([label, value]) => (
            <div key={label}>
              <dt>{label}</dt>
              <dd className={value === null ? 'muted' : undefined}>{value ?? t('moderation.not_given')}</dd>
            </div>
          ))}
        </dl>
        {listing.additional_features?.length ? (
          <>
            <h3>{t('listings.section_additional_features')}</h3>
            <dl className="moderation-facts">
              {listing.additional_features.map((feature, index) => (
                <div key={`${feature.title}-${index}`}>
                  <dt>{feature.title}</dt>
                  <dd>{feature.value}</dd>
                </div>
              ))}
            </dl>
          </>
        ) : null}
        {listing.floor_plans?.length ? (
          <p>{t('moderation.floor_plans', { n: formatNumber(listing.floor_plans.length, i18n.language) })}</p>
        ) : null}
      </section>
      <section>
        <h2>{t('moderation.map')}</h2>
        {position ? (
          <Suspense fallback={<Loading />}>
            <ListingPinMap latitude={position.latitude} longitude={position.longitude} label={t('moderation.map')} />
          </Suspense>
        ) : (
          <p className="muted">{t('moderation.no_position')}</p>
        )}
      </section>
      <section>
        <h2>{t('moderation.description')}</h2>
        <p className="moderation-text" dir="auto">
          {text || listing.excerpt || t('moderation.no_description')}
        </p>
      </section>
      <section>
        <h2>{t('moderation.history')}</h2>
        <ErrorNotice error={history.query.error} onRetry={() => void history.query.refetch()} />
        {history.query.data?.data.history.length ? (
          <DataTable
            columns={[t('moderation.when'), t('moderation.move'), t('moderation.by'), t('moderation.reason_column')]}
            caption={t('moderation.history')}
          >
            {history.query.data.data.history.map((entry, index) => (
              <tr key={`${entry.at}-${index}`}>
                <td>
                  <time dateTime={entry.at}>{date(entry.at)}</time>
                </td>
                <td>{t('moderation.move_text', { from: stateName(entry.from), to: stateName(entry.to) })}</td>
                <td>{entry.actor?.display_name ?? '—'}</td>
                <td>{entry.reason || '—'}</td>
              </tr>
            ))}
          </DataTable>
        ) : null}
      </section>
      <DisapproveDialog
        targets={disapproving}
        busy={busy}
        onCancel={() => setDisapproving(null)}
        onSubmit={(reason) => void run('disapprove', disapproving ?? [], reason).then(() => setDisapproving(null))}
      />
    </article>
  );
}
