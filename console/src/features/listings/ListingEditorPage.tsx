import { useOne } from '@refinedev/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate, useParams } from 'react-router';
import { ErrorNotice, Forbidden, isForbidden, Loading, NotFound, PageHeader } from '../../components/ui';
import { ListingForm } from './form/ListingForm';
import { HistoryPanel } from './HistoryPanel';
import './listings.css';
import { MovesPanel } from './MovesPanel';
import { LISTINGS_RESOURCE } from './resources';
import type { ListingRecord } from './types';

/** `/listings/new` and `/listings/:id/edit`: the form, and for an existing listing its state moves and history. */
export default function ListingEditorPage() {
  const { id } = useParams();
  // One editor per listing: moving from the new page to the created listing starts a fresh form.
  return id === undefined ? <NewListing /> : <EditListing key={id} id={id} />;
}

function NewListing() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <section className="listings-page">
      <PageHeader title={t('listings.new_listing')}>
        <Link to="/listings">{t('listings.back_to_list')}</Link>
      </PageHeader>
      <ListingForm onSaved={(saved) => navigate(`/listings/${saved.id}/edit`, { state: { created: saved.status } })} />
    </section>
  );
}

function EditListing({ id }: { id: string }) {
  const { t } = useTranslation();
  const location = useLocation();
  const { query, result } = useOne<ListingRecord>({ resource: LISTINGS_RESOURCE, id, errorNotification: false });
  // Shown once after creating; a later move makes it stale.
  const [created, setCreated] = useState((location.state as { created?: string } | null)?.created);

  if (isForbidden(query.error)) return <Forbidden />;
  if (query.error?.statusCode === 404) return <NotFound />;
  if (query.isLoading) return <Loading />;
  if (query.error || !result) return <ErrorNotice error={query.error} onRetry={() => void query.refetch()} />;
  const record = result;

  return (
    <section className="listings-page">
      <PageHeader title={t('listings.edit_listing_named', { title: record.title })}>
        <Link to="/listings">{t('listings.back_to_list')}</Link>
      </PageHeader>
      {created ? (
        <p className="notice notice-ok" role="status">
          {t('listings.created_in_state', { state: t(`common.listing_state_${created}`) })}
        </p>
      ) : null}
      <MovesPanel
        record={record}
        onMoved={() => {
          setCreated(undefined);
          void query.refetch();
        }}
      />
      <ListingForm record={record} onSaved={() => void query.refetch()} />
      <HistoryPanel id={record.id} version={record.status} />
    </section>
  );
}
