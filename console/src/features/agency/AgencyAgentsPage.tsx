import { type HttpError, useCustomMutation, useGetIdentity, useInvalidate, useList, useTable } from '@refinedev/core';
import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Identity } from '../../api/session';
import { DataTable, ErrorNotice, Forbidden, isForbidden, Loading, PageHeader, Pager, QueryStatus } from '../../components/ui';
import { AGENCY_AGENTS_RESOURCE, type AgentRecord, agentStanding, attachPath, detachPath, pageToShow } from './agents';
import './agency.css';

const PAGE_SIZE = 20;

/** The agency's agents, hidden ones included: who they are, detaching one, finding and attaching a free agent. */
export default function AgencyAgentsPage() {
  const { t } = useTranslation();
  const { data: identity, isLoading } = useGetIdentity<Identity>();
  if (isLoading) return <Loading />;
  if (!identity?.agency_id) {
    return (
      <section>
        <PageHeader title={t('agency.title')} />
        <p className="muted">{t('agency.no_agency')}</p>
      </section>
    );
  }
  return <AgencyAgents agencyId={identity.agency_id} />;
}

function AgencyAgents({ agencyId }: { agencyId: number }) {
  const { t, i18n } = useTranslation();
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string } | null>(null);
  const [confirming, setConfirming] = useState<number | null>(null);
  // The agency's own list (not the directory's search, which leaves hidden agents out), its id in the path.
  const { tableQuery, result, currentPage, setCurrentPage, pageCount } = useTable<AgentRecord, HttpError>({
    resource: AGENCY_AGENTS_RESOURCE,
    meta: { params: { id: agencyId } },
    pagination: { pageSize: PAGE_SIZE },
    sorters: { mode: 'off' },
    errorNotification: false,
  });
  const answered = tableQuery.data !== undefined;
  const agents = result.data;
  const { mutate, mutation } = useCustomMutation();
  const invalidate = useInvalidate();
  const refresh = () => {
    void tableQuery.refetch();
    void invalidate({ resource: 'agency-agent-candidates', invalidates: ['list'] });
  };

  // The last agent of a later page was detached: show the page before it rather than an empty one.
  useEffect(() => {
    if (tableQuery.isLoading || tableQuery.isFetching || !answered) return;
    const next = pageToShow(currentPage, agents.length, pageCount);
    if (next !== currentPage) setCurrentPage(next);
  }, [tableQuery.isLoading, tableQuery.isFetching, answered, currentPage, agents.length, pageCount, setCurrentPage]);
  const failed = (error: HttpError) => setOutcome({ ok: false, text: error.message });

  const detach = (agent: AgentRecord) =>
    mutate(
      { url: detachPath(agencyId, agent.id), method: 'delete', values: {}, successNotification: false, errorNotification: false },
      {
        onSuccess: () => {
          setConfirming(null);
          setOutcome({ ok: true, text: t('agency.detached', { name: agent.name }) });
          refresh();
        },
        onError: failed,
      },
    );
  const attach = (agent: AgentRecord) =>
    mutate(
      { url: attachPath(agencyId), method: 'post', values: { agent_id: agent.id }, successNotification: false, errorNotification: false },
      {
        onSuccess: () => {
          setOutcome({ ok: true, text: t('agency.attached', { name: agent.name }) });
          refresh();
        },
        onError: failed,
      },
    );

  if (isForbidden(tableQuery.error)) return <Forbidden />;
  const number = (value: number) => value.toLocaleString(i18n.language, { maximumFractionDigits: 1 });

  return (
    <section className="stack">
      <PageHeader title={t('agency.title')} />
      <div role="status" aria-live="polite">
        {outcome ? <p className={outcome.ok ? 'notice notice-ok' : 'notice notice-error'}>{outcome.text}</p> : null}
      </div>
      <QueryStatus query={tableQuery} isEmpty={agents.length === 0} empty={t('agency.no_agents')} />
      {agents.some((agent) => !agent.visible) ? <p className="muted">{t('agency.hidden_note')}</p> : null}
      {agents.length > 0 ? (
        <DataTable
          columns={[t('agency.name'), t('agency.contact'), t('agency.listings'), t('agency.rating'), t('common.actions')]}
          caption={t('agency.title')}
        >
          {agents.map((agent) => (
            <tr key={agent.id}>
              <td>
                <strong>{agent.name}</strong>
                {agent.visible ? null : (
                  <>
                    {' '}
                    <span className="tag">{t('agency.hidden')}</span>
                  </>
                )}
                {agent.position ? <div className="muted">{agent.position}</div> : null}
              </td>
              <td>
                <div className="agency-contact">
                  {agent.email ? <span dir="ltr">{agent.email}</span> : null}
                  {agent.phone ? <span dir="ltr">{agent.phone}</span> : null}
                </div>
              </td>
              <td>{number(agent.properties_count)}</td>
              <td>
                {agent.rating !== null
                  ? t('agency.rating_value', { rating: number(agent.rating), reviews: number(agent.reviews_count) })
                  : t('agency.no_rating')}
              </td>
              <td>
                {confirming === agent.id ? (
                  <div className="row">
                    <button type="button" className="danger" disabled={mutation.isPending} onClick={() => detach(agent)}>
                      {t('agency.confirm_detach', { name: agent.name })}
                    </button>
                    <button type="button" onClick={() => setConfirming(null)}>
                      {t('common.cancel')}
                    </button>
                  </div>
                ) : (
                  <button
                    type="button"
                    className="danger"
                    onClick={() => setConfirming(agent.id)}
                    aria-label={t('agency.detach_named', { name: agent.name })}
                  >
                    {t('agency.detach')}
                  </button>
                )}
              </td>
            </tr>
          ))}
        </DataTable>
      ) : null}
      <Pager currentPage={currentPage} pageCount={pageCount} total={result.total} onPage={setCurrentPage} />
      <AttachAgent agencyId={agencyId} busy={mutation.isPending} onAttach={attach} />
    </section>
  );
}

function AttachAgent({ agencyId, busy, onAttach }: { agencyId: number; busy: boolean; onAttach: (agent: AgentRecord) => void }) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState('');
  const [keyword, setKeyword] = useState('');
  const { result, query } = useList<AgentRecord>({
    resource: 'agency-agent-candidates',
    pagination: { currentPage: 1, pageSize: 10 },
    filters: [{ field: 'keyword', operator: 'eq', value: keyword }],
    queryOptions: { enabled: keyword !== '' },
  });
  const search = (event: FormEvent) => {
    event.preventDefault();
    setKeyword(draft.trim());
  };

  return (
    <section className="card stack agency-attach" aria-labelledby="agency-attach">
      <h2 id="agency-attach">{t('agency.attach_title')}</h2>
      <p className="muted">{t('agency.attach_help')}</p>
      <form className="row" onSubmit={search} role="search">
        <label htmlFor="agency-search">{t('agency.find_agent')}</label>
        <input id="agency-search" type="search" value={draft} onChange={(event) => setDraft(event.target.value)} />
        <button type="submit">{t('common.search')}</button>
      </form>
      <ErrorNotice error={query.error} onRetry={() => void query.refetch()} />
      {keyword !== '' && query.isLoading ? <Loading /> : null}
      {keyword !== '' && !query.isLoading && result.data.length === 0 ? (
        <p className="muted" role="status">
          {t('agency.no_match', { keyword })}
        </p>
      ) : null}
      {result.data.length > 0 && keyword !== '' ? (
        <ul className="agency-candidates">
          {result.data.map((agent) => {
            const standing = agentStanding(agent, agencyId);
            return (
              <li key={agent.id} className="row">
                <span className="agency-candidate-name">
                  <strong>{agent.name}</strong>{' '}
                  <span className="muted">
                    {standing === 'free'
                      ? t('agency.free_agent')
                      : standing === 'ours'
                        ? t('agency.already_ours')
                        : t('agency.other_agency', { agency: agent.agency?.name ?? '' })}
                  </span>
                </span>
                {standing === 'free' ? (
                  <button
                    type="button"
                    className="primary"
                    disabled={busy}
                    onClick={() => onAttach(agent)}
                    aria-label={t('agency.attach_named', { name: agent.name })}
                  >
                    {t('agency.attach')}
                  </button>
                ) : null}
              </li>
            );
          })}
        </ul>
      ) : null}
    </section>
  );
}
