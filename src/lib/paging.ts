import { type Static, Type } from 'typebox';

/** The paging parameters of every list (docs/api.md 0.2): spread into a route's querystring schema. */
export const PageQueryFields = {
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000, description: '1-based (default 1)' })),
  paged: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000, description: 'Alias of `page`' })),
  per_page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, description: 'Default 10; more than 100 is refused, not clamped' })),
};

export const Pagination = Type.Object({
  total_records: Type.Integer(),
  total_pages: Type.Integer(),
  current_page: Type.Integer(),
  per_page: Type.Integer(),
  has_next_page: Type.Boolean(),
  has_previous_page: Type.Boolean(),
});
export type PaginationRecord = Static<typeof Pagination>;

const DEFAULT_PER_PAGE = 10;

export interface PageWindow {
  page: number;
  perPage: number;
  offset: number;
}

/** The page a query asks for (`page`, else its alias `paged`, else 1). */
export function pageWindow(query: { page?: number | undefined; paged?: number | undefined; per_page?: number | undefined }): PageWindow {
  const page = query.page ?? query.paged ?? 1;
  const perPage = query.per_page ?? DEFAULT_PER_PAGE;
  return { page, perPage, offset: (page - 1) * perPage };
}

/** True figures for any page, including one past the last (docs/api.md 12). */
export function paginationOf(total: number, { page, perPage }: PageWindow): PaginationRecord {
  const totalPages = Math.ceil(total / perPage);
  return {
    total_records: total,
    total_pages: totalPages,
    current_page: page,
    per_page: perPage,
    has_next_page: page < totalPages,
    has_previous_page: page > 1,
  };
}
