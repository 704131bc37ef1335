import type { Transaction } from 'kysely';
import type { DB, UserRow } from '../../db/schema/index.js';
import { firstFreeSlug, slugify, sortKey } from '../../lib/slug.js';
import type { DirectoryRecordMaker } from '../accounts/index.js';
import { hasAccountRecord, insertAccountRecord, isAccountRecordSlugTaken } from './account-records.repository.js';

/**
 * The agent or agency record of an account (docs/api.md 2.2, 12), made when accounts asks: named by the
 * user's display name, with a free slug made from it, and the account's e-mail address and phone number.
 */
export class AccountRecords implements DirectoryRecordMaker {
  async ensureRecordOf(trx: Transaction<DB>, kind: 'agent' | 'agency', user: UserRow, now: string): Promise<void> {
    if (await hasAccountRecord(trx, kind, user.id)) return;
    const table = kind === 'agent' ? 'agents' : 'agencies';
    const slug = await firstFreeSlug(slugify(user.display_name) || slugify(user.username) || table, (candidate) =>
      isAccountRecordSlugTaken(trx, kind, candidate),
    );
    await insertAccountRecord(trx, kind, {
      user_id: user.id,
      name: user.display_name,
      slug,
      sort_key: sortKey(user.display_name),
      email: user.email,
      phone: user.phone,
      created_at: now,
      updated_at: now,
    });
  }
}
