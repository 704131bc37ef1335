import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatBedrooms, formatCount } from '../../format';
import { type ExploreState, FACETS, type FacetName, facetKey, facetOptions, type Facets, hasFilters, isSelected } from './explore-state';
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
  onClear,
}: {
  id: string;
  state: ExploreState;
  facets: Facets | undefined;
  busy: boolean;
  onSelect: (facet: FacetName, value: string | number | { min: number; max: number } | null, on: boolean) => void;
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
    facet === 'price'
      ? formatPriceRange(value as { min: number; max: number }, i18n.language)
      : facet === 'bedrooms'
        ? formatBedrooms(value as number, i18n.language, t)
        : name;
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
        const group = `explore-${facet}`;
        if (options.length === 0 && !facets) return null;
        return (
          <fieldset key={facet} className="explore-facet">
            <legend>{t(`explore.facet_${facet}`)}</legend>
            {!multi ? (
              <label>
                <input
                  type="radio"
                  name={group}
                  checked={facet === 'bedrooms' ? state.bedrooms === null : state.price === null}
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
