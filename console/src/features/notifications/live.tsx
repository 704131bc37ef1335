import type { AnswerData, Schemas } from '@realty-api/client';
import { useInvalidate } from '@refinedev/core';
import { createContext, type ReactNode, useCallback, useContext, useEffect, useState } from 'react';
import { api, authorizedFetch } from '../../api/client';
import { EventStreamParser } from '../../api/event-stream';
import { session } from '../../api/session';

/** A notification record (docs/api.md 8). */
export type NotificationRecord = Schemas['Notification'];

type UnreadCount = AnswerData<'/realty-api/v1/notifications/unread-count', 'get'>;

interface LiveNotifications {
  unread: number;
  /** The newest notification received live in this tab, for a toast. */
  latest: NotificationRecord | null;
  /** Reads the unread count again (after marking read). */
  refresh: () => void;
}

const LiveContext = createContext<LiveNotifications>({ unread: 0, latest: null, refresh: () => undefined });

const FIRST_RETRY_MS = 1_000;
const LONGEST_RETRY_MS = 30_000;

/**
 * Keeps the unread count live: reads it, then follows GET /notifications/stream (Server-Sent Events over
 * fetch, since EventSource cannot send the Bearer token). The stream ends when the access token expires or
 * the server restarts; the loop then renews the token if needed and reconnects with Last-Event-ID, so no
 * notification is missed or counted twice. Each new one also refreshes Refine's notification lists. It lives
 * inside the signed-in shell: signing out unmounts it, which closes the stream.
 */
export function LiveNotificationsProvider({ children }: { children: ReactNode }) {
  const [unread, setUnread] = useState(0);
  const [latest, setLatest] = useState<NotificationRecord | null>(null);
  const invalidate = useInvalidate();

  const refresh = useCallback(() => {
    api<UnreadCount>('/notifications/unread-count')
      .then((answer) => setUnread(answer.unread_count))
      .catch(() => undefined);
  }, []);

  useEffect(() => {
    const controller = new AbortController();
    let lastEventId: string | undefined;
    let retryMs = FIRST_RETRY_MS;

    const follow = async () => {
      const { unread_count } = await api<UnreadCount>('/notifications/unread-count', { signal: controller.signal });
      setUnread(unread_count);
      const response = await authorizedFetch('/notifications/stream', {
        signal: controller.signal,
        headers: { accept: 'text/event-stream', ...(lastEventId ? { 'last-event-id': lastEventId } : {}) },
      });
      if (!response.ok || !response.body) throw new Error(`stream answered ${response.status}`);
      retryMs = FIRST_RETRY_MS;
      const parser = new EventStreamParser();
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        for (const event of parser.push(value)) {
          if (event.event !== 'notification') continue;
          lastEventId = event.id ?? lastEventId;
          const record = JSON.parse(event.data) as NotificationRecord;
          setLatest(record);
          if (!record.is_read) setUnread((count) => count + 1);
          void invalidate({ resource: 'notifications', invalidates: ['list'] });
        }
      }
    };

    const run = async () => {
      while (!controller.signal.aborted && session.token() !== null) {
        try {
          await follow();
        } catch {
          if (controller.signal.aborted) return;
          await new Promise((resolve) => setTimeout(resolve, retryMs));
          retryMs = Math.min(retryMs * 2, LONGEST_RETRY_MS);
        }
      }
    };
    void run();
    return () => controller.abort();
  }, [invalidate]);

  return <LiveContext.Provider value={{ unread, latest, refresh }}>{children}</LiveContext.Provider>;
}

export function useLiveNotifications(): LiveNotifications {
  return useContext(LiveContext);
}
