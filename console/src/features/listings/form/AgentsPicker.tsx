import type { AnswerData } from '@realty-api/client';
import { useCustom, useGetIdentity, useList } from '@refinedev/core';
import { useTranslation } from 'react-i18next';
import type { Identity } from '../../../api/session';
import { AGENTS_RESOURCE } from '../resources';
import { AGENT_DISPLAYS, type AgentSummary } from '../types';
import { CheckboxGroup } from './CheckboxGroup';
import { SelectInput } from './fields';

const MODERATOR_ROLES = ['administrator', 'manager'];

/**
 * Who is shown on the listing (`agent_display`) and which agents it names (`agent_ids`): moderators choose
 * among all agents, agencies and agents in an agency among the agency's agents, an agent alone has their own
 * record; the listing's current agents are always offered.
 */
export function AgentsPicker({ current }: { current: readonly AgentSummary[] }) {
  const { t } = useTranslation();
  const { data: identity } = useGetIdentity<Identity>();
  const moderator = identity !== undefined && MODERATOR_ROLES.includes(identity.role);
  const agencyId = identity?.agency_id ?? null;
  const all = useList<AgentSummary>({
    resource: AGENTS_RESOURCE,
    pagination: { currentPage: 1, pageSize: 100 },
    queryOptions: { enabled: moderator },
    errorNotification: false,
  });
  const agency = useCustom<AnswerData<'/realty-api/v1/agencies/{id}/agents', 'get'>>({
    url: `/agencies/${agencyId ?? 0}/agents`,
    method: 'get',
    config: { query: { per_page: 100 } },
    queryOptions: { enabled: !moderator && agencyId !== null },
    errorNotification: false,
  });

  const byId = new Map<number, string>();
  for (const agent of current) byId.set(agent.id, agent.name);
  if (identity?.agent_id) byId.set(identity.agent_id, byId.get(identity.agent_id) ?? (identity.display_name || identity.username));
  for (const agent of moderator ? all.result.data : (agency.query.data?.data?.agents ?? [])) byId.set(agent.id, agent.name);
  const options = [...byId].map(([id, name]) => ({ value: String(id), label: name })).sort((a, b) => a.label.localeCompare(b.label));
  const loading = (moderator && all.query.isLoading) || (!moderator && agencyId !== null && agency.query.isLoading);

  return (
    <div className="stack">
      <div className="listings-grid">
        <SelectInput
          name="agent_display"
          label={t('listings.agent_display')}
          options={AGENT_DISPLAYS.map((value) => ({ value, label: t(`listings.display_${value}`) }))}
        />
      </div>
      <CheckboxGroup
        name="agent_ids"
        legend={t('listings.agents')}
        options={options}
        loading={loading}
        emptyText={loading ? t('common.loading') : t('listings.no_agents')}
      />
    </div>
  );
}
