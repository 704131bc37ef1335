import type { AnswerData } from '@realty-api/client';
import { type HttpError, useCustomMutation, useInvalidate } from '@refinedev/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SUBMISSION_FIELD_LABELS } from './form/submission';
import { allowedMoves, type OwnerMove } from './moves';
import { LISTINGS_RESOURCE } from './resources';
import { StateTag } from './StateTag';
import type { ListingRecord } from './types';

/**
 * The listing's state and the owner's moves from it (POST /users/property-actions): submit a draft, hold,
 * put live, mark sold. Only moves the state allows are offered; the API's 409 (someone moved it meanwhile)
 * is shown as it comes.
 */
export function MovesPanel({ record, onMoved }: { record: ListingRecord; onMoved: () => void }) {
  const { t } = useTranslation();
  const { mutate, mutation } = useCustomMutation<AnswerData<'/realty-api/v1/users/property-actions', 'post'>>();
  const invalidate = useInvalidate();
  // Kept as data, not text: a change of language translates what is shown.
  const [outcome, setOutcome] = useState<
    { ok: true; state: ListingRecord['status'] } | { ok: false; conflict: boolean; message: string; missing: string[] } | null
  >(null);
  const moves = allowedMoves(record.status);

  const run = (action: OwnerMove) => {
    setOutcome(null);
    mutate(
      {
        url: '/users/property-actions',
        method: 'post',
        values: { property_id: record.id, action },
        successNotification: false,
        errorNotification: false,
      },
      {
        onSuccess: (answer) => {
          setOutcome({ ok: true, state: answer.data.status });
          void invalidate({ resource: LISTINGS_RESOURCE, invalidates: ['list', 'detail'], id: record.id });
          onMoved();
        },
        onError: (error: HttpError) => {
          const conflict = error.statusCode === 409;
          // A submission the site's rule refuses names its missing fields (docs/api.md 14).
          const missing =
            error.statusCode === 400 ? Object.keys(error.errors ?? {}).filter((field) => field in SUBMISSION_FIELD_LABELS) : [];
          setOutcome({ ok: false, conflict, message: error.message, missing });
          if (conflict) onMoved();
        },
      },
    );
  };

  return (
    <section className="card listings-moves" aria-labelledby="listings-moves-heading">
      <h2 id="listings-moves-heading">{t('listings.state_and_moves')}</h2>
      <div className="row">
        <span>{t('listings.current_state')}</span> <StateTag state={record.status} />
        {moves.map((move) => (
          <button
            key={move}
            type="button"
            className={move === 'submit_listing' ? 'primary' : undefined}
            disabled={mutation.isPending}
            onClick={() => run(move)}
          >
            {t(`listings.move_${move}`)}
          </button>
        ))}
      </div>
      {moves.length === 0 ? <p className="muted">{t(`listings.no_moves_${record.status === 'pending' ? 'pending' : 'other'}`)}</p> : null}
      <div role="status">
        {outcome?.ok ? (
          <p className="notice notice-ok">{t('listings.moved_to', { state: t(`common.listing_state_${outcome.state}`) })}</p>
        ) : null}
      </div>
      <div role="alert">
        {outcome && !outcome.ok ? (
          <p className="notice notice-error">
            {outcome.missing.length > 0
              ? t('listings.missing_fields', { fields: outcome.missing.map((field) => t(SUBMISSION_FIELD_LABELS[field]!)).join(', ') })
              : outcome.conflict
                ? `${t('listings.move_refused')} ${outcome.message}`
                : outcome.message}
          </p>
        ) : null}
      </div>
    </section>
  );
}
