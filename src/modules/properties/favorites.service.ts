import type { Kysely } from 'kysely';
import { isForeignKeyViolation } from '../../db/dialect/index.js';
import type { DB } from '../../db/schema.js';
import { AppError } from '../../http/errors.js';
import type { AuthUser } from '../../http/request-context.js';
import * as repository from './favorites.repository.js';
import { assertCanView } from './listing-access.js';
import type { FavoriteResultRecord } from './properties.schemas.js';
import type { PropertiesService } from './properties.service.js';

/** Favorites (API.md 4.2 POST /favorite-property/{id}); the caller's list is in property-lists.service.ts. */
export class FavoritesService {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly properties: PropertiesService,
  ) {}

  /**
   * Toggles the listing among the caller's favorites (`favorite` undefined), or sets it (idempotent). Only a
   * listing the caller may see (else 404). `added` is whether it is a favorite now, `favorites_count` its total.
   */
  async setFavorite(caller: AuthUser, listingId: number, favorite: boolean | undefined): Promise<FavoriteResultRecord> {
    assertCanView(caller, await this.properties.findAccess(listingId));
    let added: boolean;
    try {
      added = await this.write(caller.id, listingId, favorite);
    } catch (error) {
      // The listing was deleted after the check above: the insert met its foreign key.
      if (isForeignKeyViolation(error)) throw AppError.notFound();
      throw error;
    }
    return { added, favorites_count: await repository.countFavoritesOf(this.db, listingId) };
  }

  private async write(userId: number, listingId: number, favorite: boolean | undefined): Promise<boolean> {
    const at = new Date().toISOString();
    if (favorite === true) {
      await repository.addFavorite(this.db, userId, listingId, at);
      return true;
    }
    if (favorite === false) {
      await repository.removeFavorite(this.db, userId, listingId);
      return false;
    }
    // Toggle: add, or remove what was there. Two toggles racing both succeed; each reports the state it left.
    if (await repository.addFavorite(this.db, userId, listingId, at)) return true;
    await repository.removeFavorite(this.db, userId, listingId);
    return false;
  }
}
