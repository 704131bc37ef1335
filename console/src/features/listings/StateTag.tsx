import { useTranslation } from 'react-i18next';
import type { ListingState } from './types';

/** A listing state as a labelled tag: the word carries the meaning, the colour only repeats it. */
export function StateTag({ state }: { state: ListingState }) {
  const { t } = useTranslation();
  return <span className={`tag listings-state listings-state-${state}`}>{t(`common.listing_state_${state}`)}</span>;
}
