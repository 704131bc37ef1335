import { type HttpError, useDelete, useList } from '@refinedev/core';
import { type KeyboardEvent, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { ErrorNotice, Forbidden, isForbidden, Loading, PageHeader, QueryStatus } from '../../components/ui';
import {
  LOCATION_LEVELS,
  locationTree,
  placeKey,
  type PlacedTerm,
  resourceName,
  type TaxonomyDefinition,
  type TaxonomyName,
  taxonomy,
  termTree,
  type TermRecord,
} from './taxonomies';
import { emptyTermForm, termToForm } from './term-form';
import { TermEditor, type TermOption } from './TermEditor';
import { TermRow, TermTree } from './TermTree';
import { descendantKeys, flatten } from './tree';
import './taxonomy.css';

type TabKey = TaxonomyName | 'locations';
const TABS: readonly TabKey[] = [
  'property_type',
  'property_status',
  'property_feature',
  'property_label',
  'locations',
  'agent_category',
  'agent_city',
];
const tabLabel = (tab: TabKey): string => (tab === 'locations' ? 'tab_locations' : taxonomy(tab).label);

/** What the editor beside the tree is doing: nothing, a new term (under a parent or a place), or a change. */
type Editing =
  | { mode: 'create'; taxonomy: TaxonomyName; parent: number; place?: number }
  | { mode: 'edit'; taxonomy: TaxonomyName; term: TermRecord }
  | null;

/** The administrator's taxonomy editor (docs/api.md 1.3): one tab per taxonomy, terms as a tree, an editor beside it. */
export default function TaxonomyPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const current = (TABS as readonly string[]).includes(params.get('tab') ?? '') ? (params.get('tab') as TabKey) : 'property_type';
  const tabRefs = useRef<(HTMLButtonElement | null)[]>([]);
  const [stamp, setStamp] = useState(0);
  const changed = () => setStamp((n) => n + 1);

  const select = (tab: TabKey, focus = false) => {
    setParams({ tab }, { replace: true });
    if (focus) tabRefs.current[TABS.indexOf(tab)]?.focus();
  };
  const onKey = (event: KeyboardEvent<HTMLButtonElement>) => {
    const rtl = document.documentElement.dir === 'rtl';
    const step = { ArrowRight: rtl ? -1 : 1, ArrowLeft: rtl ? 1 : -1 }[event.key as 'ArrowRight' | 'ArrowLeft'];
    const index = TABS.indexOf(current);
    let next: number | undefined;
    if (step !== undefined) next = (index + step + TABS.length) % TABS.length;
    if (event.key === 'Home') next = 0;
    if (event.key === 'End') next = TABS.length - 1;
    if (next === undefined) return;
    event.preventDefault();
    select(TABS[next] as TabKey, true);
  };

  return (
    <section>
      <PageHeader title={t('taxonomy.title')} />
      <div role="tablist" aria-label={t('taxonomy.tabs')} className="taxonomy-tabs">
        {TABS.map((tab, index) => (
          <button
            key={tab}
            ref={(element) => {
              tabRefs.current[index] = element;
            }}
            type="button"
            role="tab"
            id={`taxonomy-tab-${tab}`}
            aria-selected={tab === current}
            aria-controls={`taxonomy-panel-${tab}`}
            tabIndex={tab === current ? 0 : -1}
            onClick={() => select(tab)}
            onKeyDown={onKey}
          >
            {t(`taxonomy.${tabLabel(tab)}`)}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`taxonomy-panel-${current}`} aria-labelledby={`taxonomy-tab-${current}`} className="taxonomy-panel">
        {current === 'locations' ? (
          <LocationsPanel key="locations" stamp={stamp} onChanged={changed} />
        ) : (
          <TermsPanel key={current} definition={taxonomy(current)} stamp={stamp} onChanged={changed} />
        )}
      </div>
    </section>
  );
}

/**
 * The terms of one taxonomy, all of them (`number` 0 = all), by name. The API lets browsers keep term lists for
 * a minute (docs/api.md 1.2): the editor revalidates (`cache: 'no-cache'`), and `stamp`, which every change
 * moves on, is part of the query's key, so a change reads the lists again.
 */
function useTerms(name: TaxonomyName, stamp: number) {
  return useList<TermRecord, HttpError>({
    resource: resourceName(name),
    pagination: { mode: 'off' },
    meta: { query: { number: 0, orderby: 'name' }, cache: 'no-cache', stamp },
  });
}

interface PanelProps {
  stamp: number;
  /** After a create, change or delete: read the lists again. */
  onChanged: () => void;
}

/** After a save or a delete: the message read out by the live region. */
function useOutcome() {
  const [outcome, setOutcome] = useState<{ text: string; error?: HttpError } | null>(null);
  return { outcome, setOutcome };
}

function Outcome({ outcome }: { outcome: { text: string; error?: HttpError } | null }) {
  return (
    <div role="status" className="taxonomy-outcome">
      {outcome && !outcome.error ? <p className="notice notice-ok">{outcome.text}</p> : null}
      {outcome?.error ? <ErrorNotice error={outcome.error} /> : null}
    </div>
  );
}

function TermsPanel({ definition, stamp, onChanged }: PanelProps & { definition: TaxonomyDefinition }) {
  const { t, i18n } = useTranslation();
  const { result, query } = useTerms(definition.name, stamp);
  const { mutate: remove } = useDelete();
  const [editing, setEditing] = useState<Editing>(null);
  const { outcome, setOutcome } = useOutcome();
  const forest = useMemo(() => termTree(result.data), [result.data]);

  if (isForbidden(query.error)) return <Forbidden />;

  const parentsFor = (term?: TermRecord): TermOption[] => {
    const excluded = term ? descendantKeys(forest, String(term.id)) : new Set<string>();
    return flatten(forest)
      .filter((node) => !term || (node.item.id !== term.id && !excluded.has(node.key)))
      .map((node) => ({ id: node.item.id, label: `${'— '.repeat(node.depth)}${node.item.name}` }));
  };
  const deleteTerm = (term: TermRecord) =>
    remove(
      { resource: resourceName(definition.name), id: term.id, successNotification: false, errorNotification: false },
      {
        onSuccess: () => {
          setOutcome({ text: t('taxonomy.deleted', { name: term.name }) });
          onChanged();
          if (editing?.mode === 'edit' && editing.term.id === term.id) setEditing(null);
        },
        onError: (error) => setOutcome({ text: '', error }),
      },
    );
  const kind = t(`taxonomy.${definition.singular}`);

  return (
    <div className={editing ? 'taxonomy-layout taxonomy-layout-editing' : 'taxonomy-layout'}>
      <div className="stack">
        <div className="row">
          <button type="button" className="primary" onClick={() => setEditing({ mode: 'create', taxonomy: definition.name, parent: 0 })}>
            {t('taxonomy.new_term', { kind })}
          </button>
          <span className="muted">{t('taxonomy.term_count', { number: result.data.length.toLocaleString(i18n.language) })}</span>
        </div>
        <Outcome outcome={outcome} />
        <QueryStatus query={query} isEmpty={result.data.length === 0} empty={t('common.nothing_here')} />
        <TermTree
          label={t(`taxonomy.${definition.label}`)}
          nodes={forest}
          render={(node) => (
            <TermRow
              term={node.item}
              definition={definition}
              onEdit={() => setEditing({ mode: 'edit', taxonomy: definition.name, term: node.item })}
              onAddChild={() => setEditing({ mode: 'create', taxonomy: definition.name, parent: node.item.id })}
              addChildText={t('taxonomy.add_below')}
              addChildLabel={t('taxonomy.add_below_named', { name: node.item.name })}
              onDelete={() => deleteTerm(node.item)}
            />
          )}
        />
      </div>
      {editing ? (
        <TermEditor
          key={editing.mode === 'edit' ? `edit-${editing.term.id}` : `new-${editing.parent}`}
          definition={definition}
          {...(editing.mode === 'edit' ? { term: editing.term } : {})}
          initial={editing.mode === 'edit' ? termToForm(editing.term, definition) : emptyTermForm(editing.parent)}
          parents={parentsFor(editing.mode === 'edit' ? editing.term : undefined)}
          places={[]}
          onDone={(name) => {
            setOutcome({ text: t('taxonomy.saved', { name }) });
            onChanged();
            setEditing(null);
          }}
          onCancel={() => setEditing(null)}
        />
      ) : null}
    </div>
  );
}

/** Country → state → city → area as one tree; each level is its own taxonomy. */
function LocationsPanel({ stamp, onChanged }: PanelProps) {
  const { t } = useTranslation();
  const countries = useTerms('property_country', stamp);
  const states = useTerms('property_state', stamp);
  const cities = useTerms('property_city', stamp);
  const areas = useTerms('property_area', stamp);
  const queries: Partial<Record<TaxonomyName, ReturnType<typeof useTerms>>> = {
    property_country: countries,
    property_state: states,
    property_city: cities,
    property_area: areas,
  };
  const termsOf = (name: TaxonomyName): TermRecord[] => queries[name]?.result.data ?? [];
  const { mutate: remove } = useDelete();
  const [editing, setEditing] = useState<Editing>(null);
  const { outcome, setOutcome } = useOutcome();
  const forest = useMemo(
    () =>
      locationTree({
        property_country: countries.result.data,
        property_state: states.result.data,
        property_city: cities.result.data,
        property_area: areas.result.data,
      }),
    [countries.result.data, states.result.data, cities.result.data, areas.result.data],
  );
  const failed = [countries, states, cities, areas].find((list) => list.query.error)?.query;
  const loading = [countries, states, cities, areas].some((list) => list.query.isLoading);
  if (isForbidden(failed?.error)) return <Forbidden />;

  const optionsOf = (name: TaxonomyName, except?: TermRecord): TermOption[] => {
    const excluded = except ? descendantKeys(forest, placeKey(name, except.id)) : new Set<string>();
    return termsOf(name)
      .filter((term) => !except || (term.id !== except.id && !excluded.has(placeKey(name, term.id))))
      .map((term) => ({ id: term.id, label: term.name }));
  };
  const deleteTerm = (placed: PlacedTerm) =>
    remove(
      { resource: resourceName(placed.taxonomy), id: placed.term.id, successNotification: false, errorNotification: false },
      {
        onSuccess: () => {
          setOutcome({ text: t('taxonomy.deleted', { name: placed.term.name }) });
          // Every level is read again: children of a deleted place no longer name it.
          onChanged();
          setEditing(null);
        },
        onError: (error) => setOutcome({ text: '', error }),
      },
    );
  const next = (name: TaxonomyName): TaxonomyName | undefined => LOCATION_LEVELS[LOCATION_LEVELS.indexOf(name) + 1];
  const definition = editing ? taxonomy(editing.taxonomy) : undefined;

  return (
    <div className={editing ? 'taxonomy-layout taxonomy-layout-editing' : 'taxonomy-layout'}>
      <div className="stack">
        <div className="row">
          {LOCATION_LEVELS.map((level) => (
            <button
              key={level}
              type="button"
              className={level === 'property_country' ? 'primary' : undefined}
              onClick={() => setEditing({ mode: 'create', taxonomy: level, parent: 0 })}
            >
              {t('taxonomy.new_term', { kind: t(`taxonomy.${taxonomy(level).singular}`) })}
            </button>
          ))}
        </div>
        <p className="muted">
          {LOCATION_LEVELS.map((level) => t(`taxonomy.${taxonomy(level).label}`) + ': ' + termsOf(level).length).join(' · ')}
        </p>
        <Outcome outcome={outcome} />
        <ErrorNotice error={failed?.error} onRetry={() => void failed?.refetch()} />
        {loading ? <Loading /> : null}
        <TermTree
          label={t('taxonomy.tab_locations')}
          nodes={forest}
          render={(node) => {
            const below = next(node.item.taxonomy);
            const definitionOf = taxonomy(node.item.taxonomy);
            return (
              <TermRow
                term={node.item.term}
                definition={definitionOf}
                level={t(`taxonomy.${definitionOf.singular}`)}
                onEdit={() => setEditing({ mode: 'edit', taxonomy: node.item.taxonomy, term: node.item.term })}
                onAddChild={() =>
                  setEditing(
                    below
                      ? { mode: 'create', taxonomy: below, parent: 0, place: node.item.term.id }
                      : { mode: 'create', taxonomy: node.item.taxonomy, parent: node.item.term.id },
                  )
                }
                addChildText={t('taxonomy.add_kind', { kind: t(`taxonomy.${taxonomy(below ?? node.item.taxonomy).singular}`) })}
                addChildLabel={t('taxonomy.add_kind_under', {
                  kind: t(`taxonomy.${taxonomy(below ?? node.item.taxonomy).singular}`),
                  name: node.item.term.name,
                })}
                onDelete={() => deleteTerm(node.item)}
              />
            );
          }}
        />
      </div>
      {editing && definition ? (
        <TermEditor
          key={
            editing.mode === 'edit'
              ? `edit-${editing.taxonomy}-${editing.term.id}`
              : `new-${editing.taxonomy}-${editing.parent}-${editing.place}`
          }
          definition={definition}
          {...(editing.mode === 'edit' ? { term: editing.term } : {})}
          initial={editing.mode === 'edit' ? termToForm(editing.term, definition) : emptyTermForm(editing.parent, editing.place)}
          parents={optionsOf(editing.taxonomy, editing.mode === 'edit' ? editing.term : undefined)}
          places={definition.location ? optionsOf(definition.location.taxonomy) : []}
          onDone={(name) => {
            setOutcome({ text: t('taxonomy.saved', { name }) });
            onChanged();
            setEditing(null);
          }}
          onCancel={() => setEditing(null)}
        />
      ) : null}
    </div>
  );
}
