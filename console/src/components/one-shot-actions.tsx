import { type HttpError, useCustomMutation } from '@refinedev/core';
import { useState } from 'react';
import { ErrorNotice } from './ui';

/** What the last action said: a message, values shown this once (a secret and what goes with it), or the API's error. */
export type ActionOutcome = { text: string; shownOnce?: { label: string; value: string; secret?: boolean }[]; error?: HttpError } | null;

type ActionRequest = { url: string; method: 'post' | 'patch' | 'put' | 'delete'; values?: object };

/**
 * The actions of a page that manages credentials (webhook endpoints, API clients): each request is sent without
 * Refine's notifications, its answer turned into the page's one outcome, and the page's lists read again.
 */
export function useOneShotActions(refetch: () => void) {
  const { mutate, mutation } = useCustomMutation();
  const [outcome, setOutcome] = useState<ActionOutcome>(null);
  const call = (request: ActionRequest, done: (data: Record<string, unknown>) => ActionOutcome) => {
    setOutcome(null);
    mutate(
      { ...request, values: request.values ?? {}, successNotification: false, errorNotification: false },
      {
        onSuccess: (answer) => {
          setOutcome(done(answer.data as Record<string, unknown>));
          refetch();
        },
        onError: (error) => setOutcome({ text: '', error }),
      },
    );
  };
  return { outcome, call, pending: mutation.isPending };
}

/** The outcome, announced to screen readers: its message and each value shown once, or the error. */
export function OutcomeNotice({ outcome }: { outcome: ActionOutcome }) {
  return (
    <div role="status">
      {outcome && !outcome.error ? (
        <div className="notice notice-ok">
          <p>{outcome.text}</p>
          {outcome.shownOnce?.map(({ label, value, secret }) => (
            <p key={label}>
              {label}{' '}
              <code className={secret ? 'shown-once-secret' : undefined} dir="ltr">
                {value}
              </code>
            </p>
          ))}
        </div>
      ) : null}
      {outcome?.error ? <ErrorNotice error={outcome.error} /> : null}
    </div>
  );
}
