import { type HttpError, useDelete, useTable, useUpdate } from '@refinedev/core';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { ConfirmQuestion } from '../../components/ConfirmButton';
import { DataTable, ErrorNotice, Forbidden, isForbidden, PageHeader, Pager, QueryStatus } from '../../components/ui';
import { MatchAlert } from './MatchAlert';
import { FREQUENCIES, type Frequency, isFrequency } from './query';
import './saved-searches.css';
import type { SavedSearch } from './types';

/** The caller's saved searches: alert frequency and e-mail switched inline, rename, delete after confirming. */
export default function SavedSearchesPage() {
  const { t } = useTranslation();
  const location = useLocation();
  const createdName = (location.state as { created?: string } | null)?.created;
  const [announcement, setAnnouncement] = useState<string | null>(createdName ? t('saved-searches.created', { name: createdName }) : null);
  const [error, setError] = useState<HttpError | null>(null);
  const { tableQuery, result, currentPage, setCurrentPage, pageCount } = useTable<SavedSearch>({
    resource: 'saved-searches',
    pagination: { pageSize: 20 },
    sorters: { mode: 'off' },
    filters: { mode: 'off' },
    syncWithLocation: true,
  });

  if (isForbidden(tableQuery.error)) return <Forbidden />;

  const done = (message: string) => {
    setError(null);
    setAnnouncement(message);
  };
  const failed = (reason: HttpError) => {
    setAnnouncement(null);
    setError(reason);
  };

  return (
    <section>
      <PageHeader title={t('saved-searches.title')}>
        <Link to="/saved-searches/new" className="button-link">
          {t('saved-searches.new_title')}
        </Link>
      </PageHeader>
      <MatchAlert />
      <div role="status">{announcement ? <p className="notice notice-ok">{announcement}</p> : null}</div>
      <ErrorNotice error={error} />
      <QueryStatus query={tableQuery} isEmpty={result.data.length === 0} empty={t('saved-searches.none_saved')} />
      {result.data.length > 0 ? (
        <DataTable
          columns={[
            t('saved-searches.col_name'),
            t('saved-searches.col_search'),
            t('saved-searches.col_frequency'),
            t('saved-searches.col_email'),
            t('saved-searches.col_last'),
            t('common.actions'),
          ]}
          caption={t('saved-searches.title')}
        >
          {result.data.map((search) => (
            <SavedSearchRow key={search.id} search={search} onDone={done} onError={failed} />
          ))}
        </DataTable>
      ) : null}
      <Pager currentPage={currentPage} pageCount={pageCount} total={result.total} onPage={setCurrentPage} />
    </section>
  );
}

function SavedSearchRow({
  search,
  onDone,
  onError,
}: {
  search: SavedSearch;
  onDone: (message: string) => void;
  onError: (error: HttpError) => void;
}) {
  const { t, i18n } = useTranslation();
  const [mode, setMode] = useState<'view' | 'rename' | 'confirm'>('view');
  const [name, setName] = useState(search.name);
  // The switch and the select show the choice at once, and the server's value again when it answers or refuses.
  const [frequency, setFrequency] = useState(search.frequency);
  const [emailAlerts, setEmailAlerts] = useState(search.email_alerts);
  useEffect(() => {
    setFrequency(search.frequency);
    setEmailAlerts(search.email_alerts);
  }, [search.frequency, search.email_alerts]);
  const { mutate: update, mutation: updating } = useUpdate<SavedSearch>();
  const { mutate: remove, mutation: removing } = useDelete<SavedSearch>();
  const busy = updating.isPending || removing.isPending;
  // The control that replaces the pressed button takes the focus, so keyboard users stay where they were.
  const nameInput = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (mode === 'rename') nameInput.current?.focus();
  }, [mode]);

  const change = (values: Partial<Pick<SavedSearch, 'name' | 'frequency' | 'email_alerts'>>, after?: () => void) =>
    update(
      {
        resource: 'saved-searches',
        id: search.id,
        values,
        mutationMode: 'pessimistic',
        successNotification: false,
        errorNotification: false,
      },
      {
        onSuccess: (answer) => {
          after?.();
          onDone(t('saved-searches.updated', { name: answer.data.name }));
        },
        onError: (error) => {
          setFrequency(search.frequency);
          setEmailAlerts(search.email_alerts);
          onError(error);
        },
      },
    );

  const rename = (event: FormEvent) => {
    event.preventDefault();
    const trimmed = name.trim();
    if (!trimmed) return;
    change({ name: trimmed }, () => setMode('view'));
  };

  const destroy = () =>
    remove(
      { resource: 'saved-searches', id: search.id, mutationMode: 'pessimistic', successNotification: false, errorNotification: false },
      { onSuccess: () => onDone(t('saved-searches.deleted', { name: search.name })), onError },
    );

  return (
    <tr>
      <td>
        {mode === 'rename' ? (
          <form className="row" onSubmit={rename}>
            <input
              ref={nameInput}
              aria-label={t('saved-searches.new_name_of', { name: search.name })}
              value={name}
              maxLength={200}
              required
              onChange={(event) => setName(event.target.value)}
            />
            <button type="submit" className="primary" disabled={busy}>
              {t('common.save')}
            </button>
            <button
              type="button"
              onClick={() => {
                setName(search.name);
                setMode('view');
              }}
            >
              {t('common.cancel')}
            </button>
          </form>
        ) : (
          <Link to={`/saved-searches/${search.id}`}>
            <bdi>{search.name}</bdi>
          </Link>
        )}
      </td>
      <td>{search.display_text}</td>
      <td>
        <select
          aria-label={t('saved-searches.frequency_of', { name: search.name })}
          value={frequency}
          disabled={busy}
          onChange={(event) => {
            const next = event.target.value;
            if (!isFrequency(next)) return;
            setFrequency(next);
            change({ frequency: next });
          }}
        >
          {FREQUENCIES.map((frequency) => (
            <option key={frequency} value={frequency}>
              {frequencyLabel(t, frequency)}
            </option>
          ))}
        </select>
      </td>
      <td>
        <input
          type="checkbox"
          aria-label={t('saved-searches.email_alerts_of', { name: search.name })}
          checked={emailAlerts}
          disabled={busy}
          onChange={(event) => {
            setEmailAlerts(event.target.checked);
            change({ email_alerts: event.target.checked });
          }}
        />
      </td>
      <td>
        {search.last_notified_at ? (
          <time dateTime={search.last_notified_at}>{new Date(search.last_notified_at).toLocaleString(i18n.language)}</time>
        ) : (
          <span className="muted">{t('saved-searches.never')}</span>
        )}
      </td>
      <td>
        {mode === 'confirm' ? (
          <ConfirmQuestion
            question={t('saved-searches.confirm_delete', { name: search.name })}
            groupLabel={t('saved-searches.delete_of', { name: search.name })}
            confirmLabel={t('saved-searches.confirm_yes')}
            focus="cancel"
            confirmDisabled={busy}
            stacked
            onConfirm={destroy}
            onCancel={() => setMode('view')}
          />
        ) : (
          <div className="row">
            <Link to={`/saved-searches/${search.id}`} aria-label={t('saved-searches.view_matches_of', { name: search.name })}>
              {t('saved-searches.view_matches')}
            </Link>
            <button
              type="button"
              aria-label={t('saved-searches.rename_of', { name: search.name })}
              disabled={busy || mode === 'rename'}
              onClick={() => setMode('rename')}
            >
              {t('saved-searches.rename')}
            </button>
            <button
              type="button"
              className="danger"
              aria-label={t('saved-searches.delete_of', { name: search.name })}
              disabled={busy}
              onClick={() => setMode('confirm')}
            >
              {t('common.delete')}
            </button>
          </div>
        )}
      </td>
    </tr>
  );
}

function frequencyLabel(t: (key: string) => string, frequency: Frequency): string {
  return t(`saved-searches.frequency_${frequency}`);
}
