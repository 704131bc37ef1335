import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Envelope, errorResponses } from '../../http/envelope.js';
import { translate } from '../../i18n/index.js';
import { ContactBody, ContactParams, ContactResult, LeadList, LeadsQuery } from './leads.schemas.js';
import type { ContactTarget, LeadsService } from './leads.service.js';

export interface LeadRouteOptions {
  leads: LeadsService;
  /** The per-IP budget of contact forms (docs/api.md 0.6); each route counts its own. Unused when rate limiting is off. */
  contactRateLimit: { max: number; timeWindow: number };
}

const FORM_RULES =
  'Body: `name` (1–200, plain text: HTML tags and control characters removed), `email` (a valid address, ≤ 254; ' +
  'the mail replies to it), `phone` (optional, ≤ 50: digits, an optional leading `+`, spaces and `( ) . / -`), ' +
  '`message` (1–5,000, plain text, line breaks kept), `user_type` (`buyer`, `tenant`, `agent`, `other`; default ' +
  '`other`). Unknown fields → 400. Public: a bearer token is optional, and when one is sent the lead remembers ' +
  'the signed-in sender. Each recipient (each user once) gets one mail, at the agent’s or agency’s own address ' +
  'when the record has one, else at the account’s, in the recipient’s language (else the request’s), with ' +
  'Reply-To set to the sender; recipients read the lead at GET /users/leads and hear of it by a `new_lead` ' +
  'notification. When every recipient’s account has been deleted, the lead is stored without recipients and no ' +
  'mail is sent. At most FORMS_RATE_LIMIT_PER_MINUTE (default 5) contact forms per client IP and minute on each contact route, each counted apart (429).';

const TARGETS = [
  {
    type: 'property',
    path: '/properties/:id/contact',
    tags: ['properties'],
    summary: 'Contact the people behind a listing',
    rules:
      'The listing must be visible to the caller (published or sold for everyone; other states for its owner and ' +
      'moderators), else 404. Recipients follow the listing’s `agent_display`: `agent_info` → the users of its ' +
      'agents; `agency_info` → the user of its agency; `author_info` and `none` → its author. When none of the ' +
      'chosen agents or agency has a user account left (deleted), the author gets the lead instead. The mail names ' +
      'the listing and carries its URL.',
  },
  {
    type: 'agent',
    path: '/agents/:id/contact',
    tags: ['agents'],
    summary: 'Contact an agent (“contact realtor”)',
    rules:
      'A hidden agent is 404 to everyone but its own user, its agency’s user and moderators; unknown ids 404. The recipient is the agent’s user.',
  },
  {
    type: 'agency',
    path: '/agencies/:id/contact',
    tags: ['agencies'],
    summary: 'Contact an agency',
    rules: 'Unknown ids 404. The recipient is the agency’s user.',
  },
] as const satisfies readonly { type: ContactTarget['type']; path: string; tags: string[]; summary: string; rules: string }[];

/** Contact forms (docs/api.md 6.3) and the caller's leads (3.2 GET /users/leads). */
export async function leadRoutes(app: FastifyInstance, { leads, contactRateLimit }: LeadRouteOptions) {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();

  for (const target of TARGETS) {
    api.post(
      target.path,
      {
        config: { rateLimit: contactRateLimit },
        schema: {
          tags: [...target.tags],
          summary: target.summary,
          description: `${target.rules} ${FORM_RULES}`,
          // Anonymous or signed in: a token is optional.
          security: [{}, { bearer: [] }],
          params: ContactParams,
          body: ContactBody,
          response: { 201: Envelope(ContactResult), ...errorResponses(400, 401, 404, 413, 415, 429) },
        },
      },
      async (request, reply) => {
        const data = await leads.contact(request.user, { type: target.type, id: request.params.id }, request.body, request.lang);
        return reply.status(201).send({ success: true, data, message: translate(request.lang, 'lead_sent') });
      },
    );
  }

  api.get(
    '/users/leads',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['users'],
        summary: 'The leads addressed to the caller, newest first',
        description:
          'Contact-form inquiries (from listings, agents and agencies) of which the caller is a recipient; leads ' +
          'addressed to others never appear. Newest first (by id, descending), paged. `target_id` is the listing, ' +
          'agent or agency contacted (null once that record is deleted); `property` is `{id, title, url}` of the ' +
          'listing of a listing lead as it is now, null for other leads and when the listing was deleted or the ' +
          'caller may no longer see it; `agent_id` / `agency_id` are set on agent / agency leads.',
        security: [{ bearer: [] }],
        querystring: LeadsQuery,
        response: { 200: Envelope(LeadList), ...errorResponses(400, 401, 403, 429) },
      },
    },
    async (request) => ({ success: true, data: await leads.leadsOf(request.user!, request.query) }),
  );
}
