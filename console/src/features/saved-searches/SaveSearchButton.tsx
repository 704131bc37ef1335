import { lazy, Suspense, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { savableQuery } from './query';
import './saved-searches.css';

// The form's code (react-hook-form among it) comes only when someone opens it: a search page's first load carries
// the button alone.
const SaveSearchForm = lazy(() => import('./SaveSearchForm'));

/**
 * "Save this search" beside a search page's filters: opens a small form (name, alert frequency, e-mail) and saves
 * `query` — the page's search parameters; empty ones and paging are left out. Disabled while no filter is set.
 */
export function SaveSearchButton({ query }: { query: Record<string, string> }) {
  const { t } = useTranslation();
  const panelId = useId();
  const hintId = useId();
  const [open, setOpen] = useState(false);
  const [savedName, setSavedName] = useState<string | null>(null);
  const savable = savableQuery(query);
  const empty = Object.keys(savable).length === 0;

  return (
    <div className="saved-searches-save">
      <button
        type="button"
        aria-expanded={open}
        aria-controls={panelId}
        aria-describedby={empty ? hintId : undefined}
        disabled={empty}
        onClick={() => {
          setSavedName(null);
          setOpen((was) => !was);
        }}
      >
        {t('saved-searches.save_this')}
      </button>
      {empty ? (
        <small id={hintId} className="muted">
          {t('saved-searches.empty_query')}
        </small>
      ) : null}
      <div role="status">
        {savedName !== null ? (
          <p className="notice notice-ok">
            {t('saved-searches.created', { name: savedName })} <Link to="/saved-searches">{t('saved-searches.view_saved')}</Link>
          </p>
        ) : null}
      </div>
      {open ? (
        <Suspense fallback={<p className="muted">{t('common.loading')}</p>}>
          <SaveSearchForm
            id={panelId}
            savable={savable}
            onSaved={(name) => {
              setSavedName(name);
              setOpen(false);
            }}
            onCancel={() => setOpen(false)}
          />
        </Suspense>
      ) : null}
    </div>
  );
}
