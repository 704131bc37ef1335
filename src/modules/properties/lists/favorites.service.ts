import type { Kysely } from 'kysely';
import { isForeignKeyViolation } from '../../../db/dialect/index.js';
import type { DB } from '../../../db/schema/index.js';
import { AppError } from '../../../lib/errors.js';
import type { AuthUser } from '../../../lib/signed-in-user.js';
import * as repository from './favorites.repository.js';
import { assertCanView } from '../listing-access.js';
import type { FavoriteResultRecord } from '../properties.schemas.js';
import type { PropertiesService } from '../properties.service.js';

/** Favorites (docs/api.md 4.2 POST /favorite-property/{id}); the caller's list is in property-lists.service.ts. */
export class FavoritesService {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly properties: PropertiesService,
  ) {}

  /**
   * Toggles the listing among the caller's favorites (`favorite` undefined), or sets it (idempotent). Only a
   * listing the caller may see (else 404). `added` is whether it is a favorite now and `favorites_count` its
   * total, read together after the write: a concurrent request of the same user may have changed it since,
   * and the answer then describes the state both left, consistently.
   */
  async setFavorite(caller: AuthUser, listingId: number, favorite: boolean | undefined): Promise<FavoriteResultRecord> {
    assertCanView(caller, await this.properties.findAccess(listingId));
    try {
      await this.write(caller.id, listingId, favorite);
    } catch (error) {
      // The listing was deleted after the check above: the insert met its foreign key.
      if (isForeignKeyViolation(error)) throw AppError.notFound();
      throw error;
    }
    const state = await repository.favoriteStateOf(this.db, caller.id, listingId);
    return { added: state.mine, favorites_count: state.count };
  }

  private async write(userId: number, listingId: number, favorite: boolean | undefined): Promise<void> {
    const at = new Date().toISOString();
    if (favorite === true) {
      await repository.addFavorite(this.db, userId, listingId, at);
    } else if (favorite === false) {
      await repository.removeFavorite(this.db, userId, listingId);
    } else if (!(await repository.addFavorite(this.db, userId, listingId, at))) {
      // Toggle: add, or remove what was there. Two toggles racing both succeed.
      await repository.removeFavorite(this.db, userId, listingId);
    }
  }
}
