import type { TermRecord } from '../../../modules/taxonomies/index.js';
import { CsrfField, Field, type FormState } from '../../components/Form.js';
import type { FieldMessages } from '../../forms.js';
import type { PageContext } from '../../page.js';
import { fill } from '../../texts.js';
import type { FormChoices } from './results-terms.js';
import { resultsText } from './results.text.js';

/**
 * The forms of a results page, all working without script: the filter form (a GET to /properties; the page
 * redirects its submission to the clean URL), the sort form (a GET to this page with its other parameters), and
 * the save-this-search form (a POST).
 */

/** The parameters the filter form has fields for; every other one it carries as a hidden field. */
const FORM_FIELDS = new Set([
  'keyword',
  'type',
  'status',
  'place',
  'city',
  'area',
  'min_price',
  'max_price',
  'currency',
  'min_beds',
  'bedrooms',
  'min_baths',
  'bathrooms',
  'min_size',
  'max_size',
  'sortby',
  'page',
  'paged',
  'saved',
]);

const ROOM_CHOICES = [1, 2, 3, 4, 5] as const;

const SORTS = ['d_date', 'a_date', 'a_price', 'd_price', 'd_size', 'a_size', 'featured_first'] as const;

/** What the filter form shows: the search's parameters as text (canonical, or as typed after an error). */
export interface FilterFormValues {
  readonly params: Readonly<Record<string, string>>;
  /** The place field's value (`city:<slug>` or `area:<slug>`), '' for any. */
  readonly place: string;
  /** The names of chosen values that the choices may not list, by `<field>:<value>`. */
  readonly names: Readonly<Record<string, string>>;
  /** Currencies the results have (the currency facet), for the currency field. */
  readonly currencies: readonly string[];
  readonly errors: FieldMessages;
}

function Select({
  ctx,
  id,
  name,
  label,
  value,
  options,
  error,
  groups,
}: {
  ctx: PageContext;
  id: string;
  name: string;
  label: string;
  value: string;
  options?: readonly (readonly [string, string])[];
  groups?: readonly { label: string; options: readonly (readonly [string, string])[] }[];
  error?: string | undefined;
}) {
  const t = resultsText[ctx.lang];
  const all = [...(options ?? []), ...(groups ?? []).flatMap((group) => group.options)];
  // A chosen value the choices do not list (several types, a rare place) stays chosen.
  const extra = value !== '' && !all.some(([option]) => option === value) ? ([[value, value]] as const) : [];
  return (
    <div class="field" data-invalid={error ? '' : undefined}>
      <label for={id}>{label}</label>
      <select id={id} name={name} aria-invalid={error ? 'true' : undefined} aria-describedby={error ? `${id}-error` : undefined}>
        <option value="">{t.any}</option>
        {[...extra, ...(options ?? [])].map(([option, text]) => (
          <option key={option} value={option} selected={option === value}>
            {text}
          </option>
        ))}
        {(groups ?? []).map((group) =>
          group.options.length === 0 ? null : (
            <optgroup key={group.label} label={group.label}>
              {group.options.map(([option, text]) => (
                <option key={option} value={option} selected={option === value}>
                  {text}
                </option>
              ))}
            </optgroup>
          ),
        )}
      </select>
      {error ? (
        <p class="field__error" id={`${id}-error`}>
          {error}
        </p>
      ) : null}
    </div>
  );
}

const termOptions = (terms: readonly TermRecord[], prefix = '') => terms.map((term) => [`${prefix}${term.slug}`, term.name] as const);

/** Each value with its name where the page knows it (a chosen value the choices leave out). */
function named(values: FilterFormValues, field: string, options: readonly (readonly [string, string])[]) {
  const value = field === 'place' ? values.place : (values.params[field] ?? '');
  const name = values.names[`${field}:${value}`];
  return name && !options.some(([option]) => option === value) ? [[value, name] as const, ...options] : options;
}

export function FilterForm({ ctx, choices, values }: { ctx: PageContext; choices: FormChoices; values: FilterFormValues }) {
  const t = resultsText[ctx.lang];
  const { params, errors } = values;
  const form: FormState = { values: params, errors };
  const placeRepresented = values.place !== '';
  const hidden = Object.entries(params).filter(
    ([name]) => !FORM_FIELDS.has(name) || ((name === 'city' || name === 'area') && !placeRepresented),
  );
  const rooms = ROOM_CHOICES.map((count) => [String(count), fill(t.at_least, { count: ctx.format.number(count) })] as const);
  const currencies = values.currencies.map((code) => [code, code] as const);
  const isArea = values.place.startsWith('area:');
  const cityOptions = isArea ? termOptions(choices.cities, 'city:') : named(values, 'place', termOptions(choices.cities, 'city:'));
  const areaOptions = isArea ? named(values, 'place', termOptions(choices.areas, 'area:')) : termOptions(choices.areas, 'area:');
  return (
    <form class="filter-form" method="get" action={ctx.path('/properties')} aria-label={t.form_label}>
      {hidden
        .filter(([name]) => errors[name] === undefined)
        .map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
      <Field form={form} idPrefix="filter" name="keyword" label={t.keyword} type="search" maxLength={200} hint={t.keyword_hint} />
      <Select
        ctx={ctx}
        id="filter-type"
        name="type"
        label={t.type}
        value={params.type ?? ''}
        options={named(values, 'type', termOptions(choices.types))}
        error={errors.type}
      />
      <Select
        ctx={ctx}
        id="filter-status"
        name="status"
        label={t.status}
        value={params.status ?? ''}
        options={named(values, 'status', termOptions(choices.statuses))}
        error={errors.status}
      />
      <Select
        ctx={ctx}
        id="filter-place"
        name="place"
        label={t.place}
        value={values.place}
        groups={[
          { label: t.cities, options: cityOptions },
          { label: t.areas, options: areaOptions },
        ]}
        error={errors.place ?? errors.city ?? errors.area}
      />
      <div class="filter-form__pair">
        <Field form={form} idPrefix="filter" name="min_price" label={t.min_price} type="number" min={0} step="any" />
        <Field form={form} idPrefix="filter" name="max_price" label={t.max_price} type="number" min={0} step="any" />
      </div>
      <Select
        ctx={ctx}
        id="filter-currency"
        name="currency"
        label={t.currency}
        value={params.currency ?? ''}
        options={currencies}
        error={errors.currency}
      />
      <div class="filter-form__pair">
        <Select
          ctx={ctx}
          id="filter-min_beds"
          name="min_beds"
          label={t.min_beds}
          value={params.min_beds ?? params.bedrooms ?? ''}
          options={rooms}
          error={errors.min_beds ?? errors.bedrooms}
        />
        <Select
          ctx={ctx}
          id="filter-min_baths"
          name="min_baths"
          label={t.min_baths}
          value={params.min_baths ?? params.bathrooms ?? ''}
          options={rooms}
          error={errors.min_baths ?? errors.bathrooms}
        />
      </div>
      <div class="filter-form__pair">
        <Field form={form} idPrefix="filter" name="min_size" label={t.min_size} type="number" min={0} step="any" />
        <Field form={form} idPrefix="filter" name="max_size" label={t.max_size} type="number" min={0} step="any" />
      </div>
      <Select
        ctx={ctx}
        id="filter-sortby"
        name="sortby"
        label={t.sortby}
        value={params.sortby ?? ''}
        options={sortOptions(ctx, params)}
        error={errors.sortby}
      />
      <button class="button" type="submit">
        {t.apply}
      </button>
    </form>
  );
}

/** The orders a search can take: best match with a keyword, nearest with a centre, the list orders always. */
function sortOptions(ctx: PageContext, params: Readonly<Record<string, string>>) {
  const t = resultsText[ctx.lang];
  const sorts: string[] = [
    ...(params.keyword ? ['relevance'] : []),
    ...(params.latitude !== undefined && params.longitude !== undefined ? ['distance'] : []),
    ...SORTS,
  ];
  if (params.sortby && !sorts.includes(params.sortby) && `sort_${params.sortby}` in t) sorts.push(params.sortby);
  return sorts.map((sort) => [sort, t[`sort_${sort}` as keyof typeof t]] as const);
}

/** The sort select alone, for the top of the list: a GET to this page with its other parameters. */
export function SortForm({
  ctx,
  action,
  params,
  sortby,
}: {
  ctx: PageContext;
  action: string;
  params: readonly (readonly [string, string])[];
  sortby: string;
}) {
  const t = resultsText[ctx.lang];
  const options = sortOptions(ctx, Object.fromEntries(params));
  return (
    <form class="sort-form inline-form" method="get" action={action}>
      {params.map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <label for="sort-sortby">{t.sortby}</label>
      <select id="sort-sortby" name="sortby">
        {options.map(([sort, text]) => (
          <option key={sort} value={sort} selected={sort === sortby}>
            {text}
          </option>
        ))}
      </select>
      <button class="button button--quiet" type="submit">
        {t.sort}
      </button>
    </form>
  );
}

/** Save this search: a signed-in visitor's is saved with e-mail alerts; anyone else is asked to sign in first. */
export function SaveSearchForm({ ctx, query }: { ctx: PageContext; query: string }) {
  const t = resultsText[ctx.lang];
  return (
    <form class="save-search inline-form" method="post" action={ctx.path('/saved-searches')}>
      <CsrfField ctx={ctx} />
      <input type="hidden" name="query" value={query} />
      <button class="button" type="submit">
        {t.save}
      </button>
      <span class="muted">{t.save_hint}</span>
    </form>
  );
}
