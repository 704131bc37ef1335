import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { Envelope, errorResponses } from '../../http/envelope.js';
import { translate } from '../../i18n/index.js';
import { SearchQueryParams, SearchAnswer } from '../search/index.js';
import type { AgenciesService } from './agencies.service.js';
import { AGENT_LIST_RULES } from './agents.routes.js';
import { sendDirectoryAnswer, sendListingPage } from './directory-replies.js';
import {
  AgencyAgentParams,
  AgencyList,
  AgencyListQuery,
  AgentList,
  AgentListQuery,
  AttachAgentBody,
  DirectoryIdParams,
  UpdateAgencyBody,
} from './directory.schemas.js';

export interface AgencyRouteOptions {
  agencies: AgenciesService;
}

const AgencyRef = Type.Ref('Agency');
const AgentRef = Type.Ref('Agent');
const security = [{ bearer: [] }];
const signedIn = { auth: 'user' } as const;

/** Agencies (docs/api.md 5.1, 5.2). Contact and reviews of agencies are other modules’ routes. */
export async function agencyRoutes(app: FastifyInstance, { agencies }: AgencyRouteOptions) {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();

  api.get(
    '/agencies',
    {
      schema: {
        tags: ['agencies'],
        summary: 'Agencies, by name',
        description:
          '`keyword`: a substring of the name, ignoring case and accents. `sortby`: a_name (default) / d_name by ' +
          'the folded name; d_rating by the average rating, agencies without reviews last; d_properties by ' +
          'published listings (the agency’s own and its agents’, each once), counted in a subquery at request ' +
          'time; ties by id descending. The answer is the same for every caller (ETag, `Cache-Control: public, no-cache`).',
        querystring: AgencyListQuery,
        response: { 200: Envelope(AgencyList), ...errorResponses(400, 401, 429) },
      },
    },
    async (request, reply) => sendDirectoryAnswer(request, reply, await agencies.list(request.query)),
  );

  api.get(
    '/agencies/:id',
    {
      schema: {
        tags: ['agencies'],
        summary: 'One agency',
        description:
          '`agents_count` counts its visible agents; `properties_count` the published listings of the agency and of its agents, each once.',
        params: DirectoryIdParams,
        response: { 200: Envelope(AgencyRef), ...errorResponses(400, 401, 404, 429) },
      },
    },
    async (request, reply) => sendDirectoryAnswer(request, reply, await agencies.get(request.params.id)),
  );

  api.get(
    '/agencies/:id/agents',
    {
      schema: {
        tags: ['agencies'],
        summary: 'The agents of an agency (hidden ones too for its user and administrators/managers)',
        description:
          'An unknown agency → 404. For the agency’s own user, administrators and managers the list also holds the ' +
          'agency’s hidden agents (`visible: false`, in the same order, counted in the pagination), answered with ' +
          '`Cache-Control: private`: they may see and detach each of them. Everyone else, anonymous callers ' +
          'included, gets the visible agents only, one answer shared by all (ETag, `Cache-Control: public, ' +
          `no-cache\`). ${AGENT_LIST_RULES}`,
        params: DirectoryIdParams,
        querystring: AgentListQuery,
        response: { 200: Envelope(AgentList), ...errorResponses(400, 401, 404, 429) },
      },
    },
    async (request, reply) => {
      const { page, withHidden } = await agencies.agentsOf(request.user, request.params.id, request.query);
      return sendDirectoryAnswer(request, reply, page, !withHidden);
    },
  );

  api.get(
    '/agencies/:id/properties',
    {
      schema: {
        tags: ['agencies'],
        summary: 'The published listings of an agency and of its agents',
        description:
          'Summaries of published listings whose `agency_id` is the agency or whose `agent_ids` name one of its ' +
          'agents (docs/api.md 12), each once. Every search parameter of GET /properties/search (docs/api.md 4.4) ' +
          'narrows them (default sort d_date); an unknown parameter is refused (400). Signed-in callers get their `is_favorite` (private answer).',
        params: DirectoryIdParams,
        querystring: SearchQueryParams,
        response: { 200: Envelope(SearchAnswer), ...errorResponses(400, 401, 404, 429) },
      },
    },
    async (request, reply) => sendListingPage(request, reply, await agencies.properties(request.user, request.params.id, request.query)),
  );

  api.put(
    '/agencies/:id',
    {
      config: signedIn,
      schema: {
        tags: ['agencies'],
        summary: 'Update an agency (its user, administrators)',
        description:
          'Partial: omitted fields stay; `social` changes only the networks given (null clears one); ' +
          '`logo_id: null` removes the logo; `latitude`/`longitude` null clear them. `description` is sanitized ' +
          'to the allow-list of listing descriptions; other text loses HTML tags and is trimmed; the slug stays ' +
          'as it is. Unknown fields → 400, among them `user_id`, `slug`, ratings and counts. `logo_id` must be an ' +
          'image uploaded by the caller or by the agency’s user (else 400). Anyone else → 403.',
        security,
        params: DirectoryIdParams,
        body: UpdateAgencyBody,
        response: { 200: Envelope(AgencyRef), ...errorResponses(400, 401, 403, 404, 413, 415, 429) },
      },
    },
    async (request) => ({ success: true, data: await agencies.update(request.user!, request.params.id, request.body) }),
  );

  api.post(
    '/agencies/:id/agents',
    {
      config: signedIn,
      schema: {
        tags: ['agencies'],
        summary: 'Attach an agent to an agency (its user, administrators)',
        description:
          'Answers 200 with the agent record, also when the agent is in this agency already (idempotent). Anyone ' +
          'but the agency’s user and administrators → 403; an unknown agent, or a hidden one the caller may not ' +
          'see → 404; an agent in another agency → 409 `conflict` (it must be detached there first).',
        security,
        params: DirectoryIdParams,
        body: AttachAgentBody,
        response: { 200: Envelope(AgentRef), ...errorResponses(400, 401, 403, 404, 409, 413, 415, 429) },
      },
    },
    async (request) => ({
      success: true,
      data: await agencies.attach(request.user!, request.params.id, request.body.agent_id),
      message: translate(request.lang, 'directory_agent_attached'),
    }),
  );

  api.delete(
    '/agencies/:id/agents/:agent_id',
    {
      config: signedIn,
      schema: {
        tags: ['agencies'],
        summary: 'Detach an agent from an agency (the agency’s user, the agent’s user, administrators)',
        description:
          'Answers 200 with the agent record, now without an agency; its listings keep their `agency_id`. An ' +
          'agent that is not in this agency, or a hidden one the caller may not see → 404; anyone else → 403.',
        security,
        params: AgencyAgentParams,
        response: { 200: Envelope(AgentRef), ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    async (request) => ({
      success: true,
      data: await agencies.detach(request.user!, request.params.id, request.params.agent_id),
      message: translate(request.lang, 'directory_agent_detached'),
    }),
  );
}
