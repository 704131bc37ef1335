import { type Static, Type } from 'typebox';
import { PageQueryFields, Pagination, type PaginationRecord } from '../../../lib/paging.js';

const INT4_MAX = 2_147_483_647;

/** An old address kept for an imported record (GET /redirects). */
export const Redirect = Type.Object(
  {
    id: Type.Integer(),
    path: Type.String({ description: 'The old path, normalized: no host, percent-decoded, no trailing slash' }),
    type: Type.Union([Type.Literal('listing'), Type.Literal('agent'), Type.Literal('agency')], { description: 'The kind of record' }),
    record_id: Type.Integer({ description: 'The listing’s, agent’s or agency’s id' }),
    url: Type.String({ description: 'Where the path answers 301 to: the record’s current `url`' }),
    public: Type.Boolean({
      description: 'Whether the redirect answers now: false while the listing is not public or the agent is hidden (then 404)',
    }),
    created_at: Type.String({ format: 'date-time' }),
  },
  { $id: 'Redirect', title: 'Redirect', additionalProperties: false },
);
export type RedirectRecord = Static<typeof Redirect>;

export const RedirectList = Type.Object({ redirects: Type.Array(Type.Ref('Redirect')), pagination: Pagination });
export interface RedirectListRecord {
  redirects: RedirectRecord[];
  pagination: PaginationRecord;
}

export const ListRedirectsQuery = Type.Object({ ...PageQueryFields }, { additionalProperties: false });
export type ListRedirectsInput = Static<typeof ListRedirectsQuery>;

export const RedirectIdParams = Type.Object({ id: Type.Integer({ minimum: 1, maximum: INT4_MAX }) });

export const RedirectDeleted = Type.Object({ id: Type.Integer(), deleted: Type.Literal(true) });
