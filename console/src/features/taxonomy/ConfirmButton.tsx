import { useState } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * A destructive action asked twice, inline (no window.confirm): the button turns into the question, a
 * confirming button (focused) and Cancel.
 */
export function ConfirmButton({
  label,
  ariaLabel,
  question,
  confirmLabel,
  onConfirm,
  disabled,
}: {
  label: string;
  ariaLabel?: string;
  question: string;
  confirmLabel: string;
  onConfirm: () => void;
  disabled?: boolean;
}) {
  const { t } = useTranslation();
  const [asking, setAsking] = useState(false);
  if (!asking) {
    return (
      <button type="button" className="danger" aria-label={ariaLabel} disabled={disabled} onClick={() => setAsking(true)}>
        {label}
      </button>
    );
  }
  return (
    <span className="row" role="group" aria-label={question}>
      <span>{question}</span>
      <button
        type="button"
        className="danger"
        autoFocus
        onClick={() => {
          setAsking(false);
          onConfirm();
        }}
      >
        {confirmLabel}
      </button>
      <button type="button" onClick={() => setAsking(false)}>
        {t('common.cancel')}
      </button>
    </span>
  );
}
