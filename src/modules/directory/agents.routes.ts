import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { Envelope, errorResponses } from '../../http/envelope.js';
import { SearchQueryParams, SearchAnswer } from '../search/index.js';
import type { AgentsService } from './agents.service.js';
import { sendDirectoryAnswer, sendListingPage } from './directory-replies.js';
import { AgentList, AgentListQuery, AgentSearchQuery, DirectoryIdParams, UpdateAgentBody } from './directory.schemas.js';

export interface AgentRouteOptions {
  agents: AgentsService;
}

const AgentRef = Type.Ref('Agent');
const security = [{ bearer: [] }];

/** Shared by the agent lists' descriptions. */
export const AGENT_LIST_RULES =
  '`sortby`: a_name (default) / d_name by the name folded for case and accents; d_rating by the average rating, ' +
  'agents without reviews last; d_properties by published listings, counted per agent in a subquery at request ' +
  'time (fine for directories of thousands of agents); ties by id descending. A page past the last one is empty ' +
  'with true pagination figures.';

/** The public agent lists: hidden agents are never in them, so every caller shares one answer. */
const PUBLIC_AGENT_LIST =
  'Visible agents only. ' + AGENT_LIST_RULES + ' The answer is the same for every caller (ETag, `Cache-Control: public, no-cache`).';

/** Agents (docs/api.md 5.1, 5.2). Contact and reviews of agents are other modules’ routes. */
export async function agentRoutes(app: FastifyInstance, { agents }: AgentRouteOptions) {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();

  api.get(
    '/agents',
    {
      schema: {
        tags: ['agents'],
        summary: 'Agents, by name',
        description: PUBLIC_AGENT_LIST,
        querystring: AgentListQuery,
        response: { 200: Envelope(AgentList), ...errorResponses(400, 401, 429) },
      },
    },
    async (request, reply) => sendDirectoryAnswer(request, reply, await agents.search(request.query)),
  );

  api.get(
    '/agents/search',
    {
      schema: {
        tags: ['agents'],
        summary: 'Search agents',
        description:
          '`keyword`: a substring of the name, ignoring case and accents (the same folding on both databases). ' +
          '`city`, `category`: agent_city / agent_category slugs (`a,b` or repeated, at most 50), agents with any ' +
          'of them; unknown slugs match nothing. `agency_id`: agents of that agency. `language`: agents speaking ' +
          'it, the exact name ignoring the case of ASCII letters. Filters combine (all must hold). ' +
          PUBLIC_AGENT_LIST,
        querystring: AgentSearchQuery,
        response: { 200: Envelope(AgentList), ...errorResponses(400, 401, 429) },
      },
    },
    async (request, reply) => sendDirectoryAnswer(request, reply, await agents.search(request.query)),
  );

  api.get(
    '/agents/:id',
    {
      schema: {
        tags: ['agents'],
        summary: 'One agent',
        description:
          'A hidden agent (`visible: false`) is 404 to everyone but its own user, its agency’s user, ' +
          'administrators and managers, who get it with `Cache-Control: private`.',
        params: DirectoryIdParams,
        response: { 200: Envelope(AgentRef), ...errorResponses(400, 401, 404, 429) },
      },
    },
    async (request, reply) => {
      const record = await agents.get(request.user, request.params.id);
      return sendDirectoryAnswer(request, reply, record, record.visible);
    },
  );

  api.get(
    '/agents/:id/properties',
    {
      schema: {
        tags: ['agents'],
        summary: 'The published listings naming an agent',
        description:
          'Summaries of published listings whose `agent_ids` include the agent (docs/api.md 12); the agent must be ' +
          'one the caller may see (else 404). Every search parameter of GET /properties/search (docs/api.md 4.4) ' +
          'narrows them (default sort d_date); an unknown parameter is refused (400). Signed-in callers get their `is_favorite` (private answer).',
        params: DirectoryIdParams,
        querystring: SearchQueryParams,
        response: { 200: Envelope(SearchAnswer), ...errorResponses(400, 401, 404, 429) },
      },
    },
    async (request, reply) => sendListingPage(request, reply, await agents.properties(request.user, request.params.id, request.query)),
  );

  api.put(
    '/agents/:id',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['agents'],
        summary: 'Update an agent (its user, its agency’s user, administrators)',
        description:
          'Partial: omitted fields stay; arrays (`languages`, `category_ids`, `city_ids`) replace; `social` ' +
          'changes only the networks given (null clears one); `picture_id: null` removes the picture. Plain-text ' +
          'fields lose HTML tags and are trimmed; the slug stays as it is. Unknown fields → 400, among them ' +
          '`user_id`, `agency_id` (see POST /agencies/{id}/agents), `slug`, ratings and counts. `picture_id` must ' +
          'be an image uploaded by the caller or by the agent’s user; term ids must be agent_category / ' +
          'agent_city terms (400 naming each bad item). `visible: false` hides the agent from every list (term ' +
          'counts follow). A hidden agent the caller cannot see → 404; an agent they see but may not change → 403.',
        security,
        params: DirectoryIdParams,
        body: UpdateAgentBody,
        response: { 200: Envelope(AgentRef), ...errorResponses(400, 401, 403, 404, 413, 415, 429) },
      },
    },
    async (request) => ({ success: true, data: await agents.update(request.user!, request.params.id, request.body) }),
  );
}
