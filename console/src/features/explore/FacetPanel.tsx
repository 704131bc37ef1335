import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatBedrooms, formatCount } from '../../format';
import {
  type ExploreState,
  FACETS,
  type FacetName,
  facetKey,
  facetOptions,
  type Facets,
  hasFilters,
  isPriceBucket,
  isSelected,
  type PriceBucket,
} from './explore-state';
import { formatPriceRange } from './format';

const MULTI: readonly FacetName[] = ['type', 'status', 'city'];
/** Options a long facet shows before "Show all" (selected ones always show). */
const SHORT_FACET = 6;

/** The facets as filters: ticking a value narrows the results, and every count says how many each choice gives. */
export function FacetPanel({
  id,
  state,
  facets,
  busy,
  onSelect,
  onPrice,
  onClear,
}: {
  id: string;
  state: ExploreState;
  facets: Facets | undefined;
  busy: boolean;
  onSelect: (facet: FacetName, value: string | number | PriceBucket | null, on: boolean) => void;
  /** A typed price filter (either end may be empty) in `currency`. */
  onPrice: (min: number | null, max: number | null, currency: string) => void;
  onClear: () => void;
}) {
  const { t, i18n } = useTranslation();
  const [expanded, setExpanded] = useState<ReadonlySet<FacetName>>(new Set());
  const toggle = (facet: FacetName) =>
    setExpanded((current) => {
      const next = new Set(current);
      if (!next.delete(facet)) next.add(facet);
      return next;
    });
  const optionName = (facet: FacetName, value: unknown, name: string) =>
    facet === 'price' && isPriceBucket(value)
      ? formatPriceRange(value, i18n.language)
      : facet === 'bedrooms'
        ? formatBedrooms(value as number, i18n.language, t)
        : name;
  // The price ranges' currency and market, as the answer gives them (the API never mixes either).
  const bucket = facets?.price?.map((option) => option.value).find(isPriceBucket);
  const priceCurrency = state.currency || bucket?.currency || '';
  const statusName = bucket?.status ? (facets?.status?.find((option) => option.value === bucket.status)?.name ?? bucket.status) : '';
  const legend = (facet: FacetName) =>
    facet !== 'price' || !priceCurrency
      ? t(`explore.facet_${facet}`)
      : [t('explore.facet_price'), priceCurrency, statusName].filter(Boolean).join(' · ');
  return (
    <aside id={id} className="explore-filters" aria-labelledby="explore-filters-heading" aria-busy={busy}>
      <div className="explore-filters-head">
        <h2 id="explore-filters-heading">{t('explore.filters')}</h2>
        <button type="button" onClick={onClear} disabled={!hasFilters(state)}>
          {t('explore.clear_filters')}
        </button>
      </div>
      {FACETS.map((facet) => {
        const all = facetOptions(state, facet, facets?.[facet]);
        const long = all.length > SHORT_FACET + 1 && facet !== 'price';
        const options =
          long && !expanded.has(facet) ? all.filter((option, index) => index < SHORT_FACET || isSelected(state, facet, option.value)) : all;
        const multi = MULTI.includes(facet);
        // One currency has nothing to choose between.
        if (facet === 'currency' && options.length < 2 && !state.currency) return null;
        const group = `explore-${facet}`;
        if (options.length === 0 && !facets) return null;
        return (
          <fieldset key={facet} className="explore-facet">
            <legend>{legend(facet)}</legend>
            {!multi ? (
              <label>
                <input
                  type="radio"
                  name={group}
                  checked={
                    facet === 'bedrooms' ? state.bedrooms === null : facet === 'currency' ? state.currency === '' : state.price === null
                  }
                  onChange={() => onSelect(facet, null, true)}
                />
                <span>{t('explore.any')}</span>
              </label>
            ) : null}
            {options.map((option) => {
              const selected = isSelected(state, facet, option.value);
              return (
                <label key={facetKey(option.value)}>
                  <input
                    type={multi ? 'checkbox' : 'radio'}
                    name={group}
                    value={facetKey(option.value)}
                    checked={selected}
                    onChange={(event) => onSelect(facet, option.value, event.target.checked)}
                  />
                  <span>
                    {optionName(facet, option.value, option.name)}{' '}
                    <span className="explore-count">({formatCount(option.count, i18n.language)})</span>
                  </span>
                </label>
              );
            })}
            {facet === 'price' && priceCurrency ? (
              <PriceInputs
                key={`${state.price?.min}-${state.price?.max}-${priceCurrency}`}
                state={state}
                currency={priceCurrency}
                onPrice={onPrice}
              />
            ) : null}
            {long ? (
              <button type="button" className="explore-more" aria-expanded={expanded.has(facet)} onClick={() => toggle(facet)}>
                {expanded.has(facet) ? t('explore.show_fewer') : t('explore.show_all', { value: formatCount(all.length, i18n.language) })}
              </button>
            ) : null}
          </fieldset>
        );
      })}
    </aside>
  );
}

/** Lowest and highest price typed in the ranges' currency: for a budget the fitted ranges do not match. */
function PriceInputs({
  state,
  currency,
  onPrice,
}: {
  state: ExploreState;
  currency: string;
  onPrice: (min: number | null, max: number | null, currency: string) => void;
}) {
  const { t } = useTranslation();
  const [min, setMin] = useState(state.price?.min?.toString() ?? '');
  const [max, setMax] = useState(state.price?.max?.toString() ?? '');
  const amount = (text: string) => (text.trim() === '' ? null : Number(text));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onPrice(amount(min), amount(max), currency);
  };
  return (
    <form className="explore-price-inputs" onSubmit={submit}>
      <label>
        <span>{t('explore.price_min', { currency })}</span>
        <input type="number" inputMode="numeric" min={0} step="any" value={min} onChange={(event) => setMin(event.target.value)} />
      </label>
      <label>
        <span>{t('explore.price_max', { currency })}</span>
        <input type="number" inputMode="numeric" min={0} step="any" value={max} onChange={(event) => setMax(event.target.value)} />
      </label>
      <button type="submit">{t('explore.price_apply')}</button>
    </form>
  );
}
