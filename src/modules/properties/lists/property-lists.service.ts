import type { Kysely } from 'kysely';
import type { DB, ListingState } from '../../../db/schema/index.js';
import { AppError } from '../../../lib/errors.js';
import { type PageWindow, pageWindow, paginationOf } from '../../../lib/paging.js';
import type { AuthUser } from '../../../lib/signed-in-user.js';
import { assertCanView, canView, isModerator } from '../listing-access.js';
import type {
  FavoritePropertiesInput,
  ModerationListInput,
  MyPropertiesInput,
  PropertyListRecord,
  PropertySummaryRecord,
  SimilarInput,
} from '../properties.schemas.js';
import type { PropertiesService } from '../properties.service.js';
import * as repository from './property-lists.repository.js';

/** Similar listings answered when `limit` is not given (docs/api.md 4.2). */
const DEFAULT_SIMILAR = 4;

/** The `status` (a state, or `all`; `fallback` when absent) and trimmed `keyword` of a list holding every state. */
function stateAndKeywordOf(
  query: { status?: ListingState | 'all' | undefined; keyword?: string | undefined },
  fallback: ListingState | 'all',
): repository.StateAndKeyword {
  const status = query.status ?? fallback;
  const keyword = query.keyword?.trim();
  return { ...(status !== 'all' ? { status } : {}), ...(keyword ? { keyword } : {}) };
}

/**
 * The caller's lists of listings (docs/api.md 3.2: favorites, own listings), the moderators' list of every user's
 * listings (3.3) and similar listings (4.2). The SQL picks and counts ids; the records come from PropertiesService,
 * built in a fixed number of queries per page.
 */
export class PropertyListsService {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly properties: PropertiesService,
  ) {}

  /** The caller's favorites that the caller may still see, newest favorite first. */
  async favorites(caller: AuthUser, query: FavoritePropertiesInput): Promise<PropertyListRecord> {
    const window = pageWindow(query);
    const page = await repository.findFavoritePage(this.db, { userId: caller.id, seesEveryListing: isModerator(caller) }, window);
    // The SQL applied the visibility rule already; checking the records again keeps a listing whose state
    // changed in between out of the answer (the page is then one shorter than its figures say).
    const properties = (await this.properties.loadSummaries(page.ids))
      .filter((loaded) => canView(caller, loaded.access))
      .map((loaded): PropertySummaryRecord => ({ ...loaded.record, is_favorite: true }));
    return { properties, pagination: paginationOf(page.total, window) };
  }

  /** The listings the caller owns (authored, or authored by an agent of the caller's agency), in every state. */
  async ownListings(caller: AuthUser, query: MyPropertiesInput): Promise<PropertyListRecord> {
    const window = pageWindow(query);
    const page = await repository.findOwnListingPage(
      this.db,
      { ownerId: caller.id, ...stateAndKeywordOf(query, 'all'), sort: query.sortby ?? 'd_date' },
      window,
    );
    return this.summaryPage(caller, page, window);
  }

  /**
   * Every user's listings, for administrators and managers (docs/api.md 3.3): by default those awaiting
   * approval (`pending`), the most recently changed first.
   */
  async moderationList(caller: AuthUser, query: ModerationListInput): Promise<PropertyListRecord> {
    // The route admits moderators only; this keeps every other caller out of other users' unpublished listings
    // should the service be called from elsewhere.
    if (!isModerator(caller)) throw new AppError('forbidden');
    const window = pageWindow(query);
    const page = await repository.findModerationListPage(
      this.db,
      {
        ...stateAndKeywordOf(query, 'pending'),
        ...(query.author_id !== undefined ? { authorId: query.author_id } : {}),
        ...(query.sortby !== undefined ? { sort: query.sortby } : {}),
      },
      window,
    );
    return this.summaryPage(caller, page, window);
  }

  /** The summaries of a page of ids, in their order, with the page's figures. */
  private async summaryPage(caller: AuthUser, page: repository.IdPage, window: PageWindow): Promise<PropertyListRecord> {
    return { properties: await this.properties.summaries(caller, page.ids), pagination: paginationOf(page.total, window) };
  }

  /**
   * Published listings like one the caller may see (else 404): sharing a property type, priced within ±25 %
   * of it when it has a price, in its city, else its state, else its country (anywhere without any).
   */
  async similar(caller: AuthUser | null, id: number, query: SimilarInput): Promise<{ properties: PropertySummaryRecord[] }> {
    const [loaded] = await this.properties.loadSummaries([id]);
    assertCanView(caller, loaded?.access);
    const { record } = loaded!;
    const place = record.address.city ?? record.address.state ?? record.address.country;
    const ids = await repository.findSimilarIds(this.db, {
      listingId: id,
      typeIds: record.property_type.map((type) => type.id),
      placeTermId: place?.id ?? null,
      price: record.price,
      limit: query.limit ?? DEFAULT_SIMILAR,
    });
    return { properties: await this.properties.summaries(caller, ids) };
  }
}
