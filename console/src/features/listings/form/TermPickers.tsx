import { useList } from '@refinedev/core';
import { useTranslation } from 'react-i18next';
import { TERM_RESOURCES } from '../resources';
import type { TermRecord } from '../types';
import { CheckboxGroup } from './CheckboxGroup';
import type { ListingFormValues } from './form-values';
import { termTree } from './terms';

type TermKind = 'types' | 'statuses' | 'labels' | 'features';

const FIELD: Record<TermKind, keyof ListingFormValues> = {
  types: 'type_ids',
  statuses: 'status_ids',
  labels: 'label_ids',
  features: 'feature_ids',
};

/** Every term of a taxonomy (number=0: all), for a picker. */
export function useTerms(resource: string, query: Record<string, string> = {}, enabled = true) {
  const { result, query: state } = useList<TermRecord>({
    resource,
    pagination: { mode: 'off' },
    meta: { query: { orderby: 'name', ...query } },
    queryOptions: { enabled, staleTime: 60_000 },
    errorNotification: false,
  });
  return { terms: result.data, loading: state.isLoading && enabled, error: state.error };
}

/** Checkboxes of one taxonomy's terms (property types, statuses, labels, features), children indented. */
export function TermPicker({ kind }: { kind: TermKind }) {
  const { t } = useTranslation();
  const { terms, loading } = useTerms(TERM_RESOURCES[kind].name);
  const options = termTree(terms).map(({ term, depth }) => ({ value: String(term.id), label: term.name, depth }));
  return (
    <CheckboxGroup
      name={FIELD[kind]}
      legend={t(`listings.terms_${kind}`)}
      options={options}
      loading={loading}
      emptyText={loading ? t('common.loading') : t('listings.no_terms')}
    />
  );
}
