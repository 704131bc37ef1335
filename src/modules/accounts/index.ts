import type { AppModule, Platform } from '../module.js';
import { AccountsService } from './accounts.service.js';
import type { DirectoryRecordMaker } from './directory-records.js';
import { PasswordHasher } from './password-hasher.service.js';

export interface AccountsServices {
  /** The accounts themselves (the `users` table): creating, finding, the first administrator. */
  users: AccountsService;
  passwords: PasswordHasher;
}

/** The account core below sign-in and profiles: users and their password hashes. No routes of its own. */
export function createAccountsModule(
  { database }: Platform,
  { directoryRecords }: { directoryRecords: DirectoryRecordMaker },
): AppModule<AccountsServices> {
  const passwords = new PasswordHasher();
  return { services: { users: new AccountsService(database.db, passwords, directoryRecords), passwords } };
}

export type { AccountRow } from './accounts.repository.js';
export type { AccountsService } from './accounts.service.js';
export type { DirectoryRecordMaker } from './directory-records.js';
export type { PasswordHasher } from './password-hasher.service.js';
