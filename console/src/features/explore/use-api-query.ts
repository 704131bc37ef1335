import { type HttpError, useCustom } from '@refinedev/core';
import { keepPreviousData } from '@tanstack/react-query';
import { api } from '../../api/client';
import { toHttpError } from '../../refine/data-provider';
import type { Query } from './explore-state';

/**
 * A GET of the API through Refine's `useCustom` (its query key, cache and error handling), whose request is
 * aborted when a newer one replaces it: the query function hands React Query's abort signal to the fetch, so
 * panning the map or ticking filters quickly never leaves stale requests running. The previous answer stays
 * shown while the next one loads (no flicker of the markers or the facets).
 */
export function useApiQuery<T extends object>(url: string, query: Query, enabled = true) {
  return useCustom<T, HttpError>({
    url,
    method: 'get',
    config: { query },
    errorNotification: false,
    queryOptions: {
      enabled,
      placeholderData: keepPreviousData,
      queryFn: async ({ signal }) => {
        try {
          return { data: await api<T>(url, { query, signal }) };
        } catch (error) {
          // An abort (a newer request replaced this one) stays an abort: React Query drops it quietly.
          if (error instanceof DOMException && error.name === 'AbortError') throw error;
          throw toHttpError(error);
        }
      },
    },
  });
}
