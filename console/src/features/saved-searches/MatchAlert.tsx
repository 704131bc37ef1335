import { useInvalidate } from '@refinedev/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { type NotificationRecord, useLiveNotifications } from '../notifications/live';

/** The saved search and listing a `saved_search_match` notification names, when it is one. */
export function matchOf(notification: NotificationRecord | null): { savedSearchId: number; propertyId: number | null } | null {
  if (!notification || notification.type !== 'saved_search_match') return null;
  const savedSearchId = Number(notification.data?.saved_search_id);
  const propertyId = Number(notification.data?.property_id);
  if (!Number.isSafeInteger(savedSearchId) || savedSearchId <= 0) return null;
  return { savedSearchId, propertyId: Number.isSafeInteger(propertyId) && propertyId > 0 ? propertyId : null };
}

/**
 * A new match of one of the caller's saved searches, announced as it arrives on the live notification feed
 * (the shell's bell counts it too), with links to the search's matches and to the listing.
 */
export function MatchAlert() {
  const { t } = useTranslation();
  const { latest } = useLiveNotifications();
  const [dismissed, setDismissed] = useState<number | null>(null);
  const match = matchOf(latest);
  const invalidate = useInvalidate();
  // A match moves the search's "last alert": the lists show it.
  const matchedId = match?.savedSearchId;
  useEffect(() => {
    if (matchedId !== undefined) void invalidate({ resource: 'saved-searches', invalidates: ['list'] });
  }, [latest?.id, matchedId, invalidate]);
  const shown = latest && match && latest.id !== dismissed ? latest : null;
  return (
    <div role="status" className="saved-searches-alert">
      {shown && match ? (
        <div className="notice notice-ok">
          <strong>{shown.title}</strong>
          <span>{shown.message}</span>
          <Link to={`/saved-searches/${match.savedSearchId}`}>{t('saved-searches.view_matches')}</Link>
          {match.propertyId ? <Link to={`/explore/${match.propertyId}`}>{t('saved-searches.view_listing')}</Link> : null}
          <button type="button" onClick={() => setDismissed(shown.id)}>
            {t('saved-searches.dismiss')}
          </button>
        </div>
      ) : null}
    </div>
  );
}
