import { useCustomMutation, useInvalidate } from '@refinedev/core';
import { type FormEvent, useCallback, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { BULK_CONCURRENCY, type FailureInfo, runWithConcurrency, summarize } from './bulk';
import { type ModerationAction, moveRequest, QUEUE_RESOURCE, REASON_MAX, reasonProblem } from './queue';

/** A listing as an action needs it: its id, and its title to name it in the report. */
export interface Target {
  id: number;
  title: string;
}

/** What the last action did: shown in the page's live regions. */
export interface Report {
  action: ModerationAction;
  succeeded: Target[];
  failed: { item: Target; error: FailureInfo }[];
}

/**
 * Approves or disapproves listings, several at once with limited concurrency (each is its own API call;
 * docs/api.md 3.3 has no bulk route), then refreshes the queue and reports per listing.
 */
export function useModeration() {
  const { mutateAsync } = useCustomMutation();
  const invalidate = useInvalidate();
  const [busy, setBusy] = useState(false);
  const [report, setReport] = useState<Report | null>(null);

  const run = useCallback(
    async (action: ModerationAction, targets: Target[], reason?: string): Promise<Report> => {
      setBusy(true);
      setReport(null);
      try {
        const outcomes = await runWithConcurrency(targets, BULK_CONCURRENCY, (target) => {
          const { url, values } = moveRequest(action, target.id, reason);
          return mutateAsync({ url, method: 'post', values, successNotification: false, errorNotification: false });
        });
        const next: Report = { action, ...summarize(outcomes) };
        setReport(next);
        return next;
      } finally {
        setBusy(false);
        await invalidate({ resource: QUEUE_RESOURCE, invalidates: ['list'] });
      }
    },
    [mutateAsync, invalidate],
  );

  return { run, busy, report, clearReport: () => setReport(null) };
}

/** The outcome of the last action: successes in a polite status region, failures (with the API's message) in an alert. */
export function ReportRegions({ report }: { report: Report | null }) {
  const { t } = useTranslation();
  const done = report?.succeeded ?? [];
  const failed = report?.failed ?? [];
  const verb = report?.action === 'disapprove' ? 'disapproved' : 'approved';
  return (
    <>
      <div role="status" className="moderation-status">
        {report && done.length === 1 ? <p className="notice notice-ok">{t(`moderation.${verb}_one`, { title: done[0]!.title })}</p> : null}
        {report && done.length > 1 ? <p className="notice notice-ok">{t(`moderation.${verb}_many`, { n: done.length })}</p> : null}
      </div>
      <div role="alert" className="moderation-status">
        {failed.length > 0 ? (
          <div className="notice notice-error moderation-failures">
            <strong>{t('moderation.failed', { n: failed.length })}</strong>
            <ul>
              {failed.map(({ item, error }) => (
                <li key={item.id}>
                  {t('moderation.failed_item', { title: item.title, message: error.message })}
                  {error.status ? ` (${error.status}${error.code ? ` ${error.code}` : ''})` : ''}
                </li>
              ))}
            </ul>
          </div>
        ) : null}
      </div>
    </>
  );
}

/**
 * The disapproval form, in a modal <dialog>: a required reason, sent to the owner(s). `targets` open it;
 * null closes it. `onSubmit` gets the trimmed reason.
 */
export function DisapproveDialog({
  targets,
  busy,
  onCancel,
  onSubmit,
}: {
  targets: Target[] | null;
  busy: boolean;
  onCancel: () => void;
  onSubmit: (reason: string) => void;
}) {
  const { t } = useTranslation();
  const dialog = useRef<HTMLDialogElement>(null);
  const id = useId();
  const [reason, setReason] = useState('');
  const [problem, setProblem] = useState<'required' | 'too_long' | null>(null);
  const open = targets !== null;

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) {
      setReason('');
      setProblem(null);
      element.showModal();
    } else if (!open && element.open) element.close();
  }, [open]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = reasonProblem(reason);
    setProblem(found);
    if (!found) onSubmit(reason.trim());
  };

  const count = targets?.length ?? 0;
  return (
    <dialog
      ref={dialog}
      className="moderation-dialog"
      aria-labelledby={`${id}-title`}
      onCancel={(event) => {
        event.preventDefault();
        onCancel();
      }}
    >
      <form onSubmit={submit} noValidate className="stack">
        <h2 id={`${id}-title`}>
          {count === 1
            ? t('moderation.disapprove_one_title', { title: targets![0]!.title })
            : t('moderation.disapprove_many_title', { n: count })}
        </h2>
        <div className="field">
          <label htmlFor={`${id}-reason`}>{t('moderation.reason')}</label>
          <textarea
            id={`${id}-reason`}
            rows={4}
            value={reason}
            maxLength={REASON_MAX}
            required
            aria-invalid={problem !== null}
            aria-describedby={problem ? `${id}-error` : `${id}-hint`}
            onChange={(event) => setReason(event.target.value)}
          />
          {problem ? (
            <small id={`${id}-error`} className="field-error">
              {t(`moderation.reason_${problem}`, { max: REASON_MAX })}
            </small>
          ) : (
            <small id={`${id}-hint`} className="muted">
              {t('moderation.reason_hint')}
            </small>
          )}
        </div>
        <div className="row">
          <button type="submit" className="danger" disabled={busy}>
            {busy ? t('moderation.working') : count === 1 ? t('moderation.disapprove') : t('moderation.disapprove_n', { n: count })}
          </button>
          <button type="button" onClick={onCancel} disabled={busy}>
            {t('common.cancel')}
          </button>
        </div>
      </form>
    </dialog>
  );
}
