import type { Transaction } from 'kysely';
import type { DB } from '../../db/schema/index.js';
import { addToDirectoryTotals } from './directory-ratings.repository.js';

/**
 * The review totals of agents and agencies, which their records average when read. The reviews module asks
 * for them inside the transaction that adds or removes a review; `agents` and `agencies` are this module's.
 */
export class DirectoryRatings {
  /** Adds a review's rating and count (negative when one is removed); false when the record is gone. */
  addReview(trx: Transaction<DB>, type: 'agent' | 'agency', id: number, ratingDelta: number, countDelta: number): Promise<boolean> {
    return addToDirectoryTotals(trx, type, id, ratingDelta, countDelta);
  }
}
