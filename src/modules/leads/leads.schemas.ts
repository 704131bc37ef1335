import { type Static, type TSchema, Type } from 'typebox';
import type { LeadTarget } from '../../db/schema/index.js';
import { PageQueryFields, Pagination, type PaginationRecord } from '../../lib/paging.js';

const INT4_MAX = 2_147_483_647;
const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/** Who the sender says they are (docs/api.md 6.3); `other` when not given. */
export const LEAD_USER_TYPES = ['buyer', 'tenant', 'agent', 'other'] as const;
export type LeadUserType = (typeof LEAD_USER_TYPES)[number];

const LEAD_TARGETS = ['property', 'agent', 'agency'] as const satisfies readonly LeadTarget[];

/** The most characters a lead's message may have (docs/api.md 6.3). */
const MAX_MESSAGE_LENGTH = 5000;

export const ContactParams = Type.Object({ id: Type.Integer({ minimum: 1, maximum: INT4_MAX }) }, { additionalProperties: false });

export const ContactBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200, description: 'Plain text: HTML tags and control characters are removed' }),
    // The strict format admits no white space or line breaks, so the address is safe as the mail's Reply-To.
    email: Type.String({ format: 'email', maxLength: 254, description: 'The sender’s address; the recipient’s mail replies to it' }),
    phone: Type.Optional(
      Type.String({
        maxLength: 50,
        pattern: '^(\\+?[0-9(][0-9 ().\\/-]*[0-9])?$',
        description: 'Digits, an optional leading `+`, spaces and `( ) . / -` separators; "" for none',
      }),
    ),
    message: Type.String({
      minLength: 1,
      maxLength: MAX_MESSAGE_LENGTH,
      description: 'Plain text: HTML tags are removed, line breaks kept',
    }),
    user_type: Type.Optional(Type.Enum([...LEAD_USER_TYPES], { description: 'Default `other`' })),
  },
  { additionalProperties: false },
);
export type ContactInput = Static<typeof ContactBody>;

export const ContactResult = Type.Object({ lead_id: Type.Integer() });
export type ContactResultRecord = Static<typeof ContactResult>;

/** A lead as its recipients read it (GET /users/leads). */
export const Lead = Type.Object(
  {
    id: Type.Integer(),
    target_type: Type.Enum([...LEAD_TARGETS]),
    target_id: Nullable(Type.Integer({ description: 'The listing, agent or agency contacted; null once that record was deleted' })),
    property: Nullable(
      Type.Object(
        { id: Type.Integer(), title: Type.String(), url: Type.String({ format: 'uri' }) },
        { description: 'The listing of a listing lead, as it is now; null for other leads or once the listing was deleted' },
      ),
    ),
    agent_id: Nullable(Type.Integer({ description: 'The agent of an agent lead, else null' })),
    agency_id: Nullable(Type.Integer({ description: 'The agency of an agency lead, else null' })),
    name: Type.String(),
    email: Type.String(),
    phone: Type.String({ description: '"" when not given' }),
    message: Type.String(),
    user_type: Type.Enum([...LEAD_USER_TYPES]),
    created_at: Type.String({ description: 'ISO 8601 UTC' }),
  },
  { $id: 'Lead', title: 'Lead' },
);
export type LeadRecord = Static<typeof Lead>;

export const LeadsQuery = Type.Object({ ...PageQueryFields }, { additionalProperties: false });
export type LeadsInput = Static<typeof LeadsQuery>;

export const LeadList = Type.Object({ leads: Type.Array(Type.Ref('Lead')), pagination: Pagination });
export interface LeadListRecord {
  leads: LeadRecord[];
  pagination: PaginationRecord;
}
