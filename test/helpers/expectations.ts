import { expect } from 'vitest';

/** The error envelope of docs/api.md 0.2 with the given code (the message is localized, the id per request). */
export const errorBody = (code: string) => ({ success: false, code, message: expect.any(String), request_id: expect.any(String) });

/** The pagination object of docs/api.md 0.2 for `total` records seen `perPage` at a time, on `page`. */
export const pagination = (total: number, page: number, perPage: number) => ({
  total_records: total,
  total_pages: Math.ceil(total / perPage),
  current_page: page,
  per_page: perPage,
  has_next_page: page < Math.ceil(total / perPage),
  has_previous_page: page > 1,
});
