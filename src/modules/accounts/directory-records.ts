import type { Transaction } from 'kysely';
import type { DB, UserRow } from '../../db/schema/index.js';

/**
 * What accounts asks of the directory, which owns `agents` and `agencies` (modules/table-owners.ts): an agent
 * or agency record for a user who registers with that role or is given it (docs/api.md 2.2, 3.4), made in the
 * account's transaction. A port rather than an import: the directory module is built after this one (it needs
 * properties and search), so app.ts makes the directory's answer first (`createDirectoryRecordMaker`).
 */
export interface DirectoryRecordMaker {
  /** Makes the user's record of `kind` unless they have one; a slug taken meanwhile fails as a unique violation. */
  ensureRecordOf(trx: Transaction<DB>, kind: 'agent' | 'agency', user: UserRow, now: string): Promise<void>;
}
