import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * The question of a destructive action, asked inline (no window.confirm): the question, a confirming button and
 * Cancel, as a group named by the question (or `groupLabel`). The confirming button takes the focus, or Cancel
 * with `focus="cancel"`, so keyboard users land on it. `stacked` puts the buttons under the question
 * (class `confirm-stacked`, for narrow table cells); otherwise all stand in one row.
 */
export function ConfirmQuestion({
  question,
  groupLabel,
  confirmLabel,
  onConfirm,
  onCancel,
  focus = 'confirm',
  confirmDisabled,
  cancelDisabled,
  stacked,
  className,
}: {
  question: string;
  groupLabel?: string;
  confirmLabel: string;
  onConfirm: () => void;
  onCancel: () => void;
  focus?: 'confirm' | 'cancel';
  confirmDisabled?: boolean;
  cancelDisabled?: boolean;
  stacked?: boolean;
  className?: string;
}) {
  const { t } = useTranslation();
  const cancel = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (focus === 'cancel') cancel.current?.focus();
  }, [focus]);
  const buttons = (
    <>
      <button type="button" className="danger" autoFocus={focus === 'confirm'} disabled={confirmDisabled} onClick={onConfirm}>
        {confirmLabel}
      </button>
      <button ref={cancel} type="button" disabled={cancelDisabled} onClick={onCancel}>
        {t('common.cancel')}
      </button>
    </>
  );
  const label = groupLabel ?? question;
  if (stacked) {
    return (
      <div className={['confirm-stacked', className].filter(Boolean).join(' ')} role="group" aria-label={label}>
        <span>{question}</span>
        <div className="row">{buttons}</div>
      </div>
    );
  }
  return (
    <span className={['row', className].filter(Boolean).join(' ')} role="group" aria-label={label}>
      <span>{question}</span>
      {buttons}
    </span>
  );
}

/**
 * A destructive action asked twice: the (danger) button turns into its ConfirmQuestion. Open and closed by
 * itself, closing as the action is confirmed; or controlled with `open`/`onOpenChange` (e.g. one question at a
 * time in a table, closed when the action has answered). `busy` disables the buttons while the action runs.
 */
export function ConfirmButton({
  label,
  ariaLabel,
  question,
  confirmLabel,
  onConfirm,
  disabled,
  busy,
  open,
  onOpenChange,
  focus,
  stacked,
}: {
  label: string;
  ariaLabel?: string;
  question: string;
  confirmLabel: string;
  onConfirm: () => void;
  disabled?: boolean;
  busy?: boolean;
  open?: boolean;
  onOpenChange?: (open: boolean) => void;
  focus?: 'confirm' | 'cancel';
  stacked?: boolean;
}) {
  const [asking, setAsking] = useState(false);
  const controlled = open !== undefined;
  const shown = controlled ? open : asking;
  const setShown = (value: boolean) => {
    if (!controlled) setAsking(value);
    onOpenChange?.(value);
  };
  if (!shown) {
    return (
      <button type="button" className="danger" aria-label={ariaLabel} disabled={disabled || busy} onClick={() => setShown(true)}>
        {label}
      </button>
    );
  }
  return (
    <ConfirmQuestion
      question={question}
      confirmLabel={confirmLabel}
      focus={focus}
      stacked={stacked}
      confirmDisabled={busy}
      cancelDisabled={busy}
      onConfirm={() => {
        if (!controlled) setShown(false);
        onConfirm();
      }}
      onCancel={() => setShown(false)}
    />
  );
}
