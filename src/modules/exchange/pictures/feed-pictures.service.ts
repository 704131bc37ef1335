import type { Kysely } from 'kysely';
import { type OutboundPolicy, OutboundError, fetchGuardedBytes } from '../../../adapters/http/guarded-fetch.js';
import type { Executor } from '../../../db/executor.js';
import type { DB, FeedFileKind } from '../../../db/schema/index.js';
import { translate } from '../../../i18n/index.js';
import { AppError } from '../../../lib/errors.js';
import type { MediaService } from '../../media/index.js';
import type { PropertiesService } from '../../properties/index.js';
import * as repository from './feed-pictures.repository.js';

/** Pictures fetched at once (each is decoded and re-encoded in four sizes: four keep two cores busy). */
const AT_ONCE = 4;
/** Pictures claimed together, as the ones in hand run out. */
const PER_CLAIM = 2 * AT_ONCE;
/**
 * How long a run goes on claiming: well inside the job's one-minute lease, and long enough that a queue of
 * pictures is fetched without a pause. A run of eight pictures, the next at the scheduler's next tick, capped
 * the rate at 8 pictures/s whatever the machine (the exchange bench's pictures scenario, 2026-11-27).
 */
const RUN_BUDGET_MS = 20_000;
/** Tries before a picture is given up (its error kept); the waits between them grow fourfold from a minute. */
const MAX_TRIES = 3;
const FIRST_RETRY_MS = 60_000;
/** How long a claimed picture is passed by if its run dies before settling it. */
const CLAIM_MS = 5 * 60_000;

/**
 * Fetches the pictures feeds name into their listings' galleries (docs/data-exchange.md, "Pictures"): a
 * background job, so an import never waits for the network. Each picture is downloaded through the outbound
 * guard (public addresses only, unless a host is allowed; the upload size limit), checked and re-encoded as an
 * upload is, stored, owned by the listing's author, and put in its place in the gallery. A failed download is
 * tried again later, three times in all. Documents (a WordPress site's brochures) go the same way into the
 * listing's attachments, checked as an uploaded PDF is.
 */
export class FeedPictures {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly media: MediaService,
    private readonly properties: PropertiesService,
    private readonly policy: OutboundPolicy,
  ) {}

  /** Records the pictures (or documents) of new listings, in the transaction that writes them. */
  async enqueue(
    trx: Executor,
    pictures: readonly { listingId: number; urls: readonly string[] }[],
    kind: FeedFileKind = 'picture',
  ): Promise<void> {
    await repository.insertPictures(trx, pictures, new Date().toISOString(), kind);
  }

  /**
   * Gives a listing the pictures a changed record names, unless they are the ones it already came with. The
   * pictures of the old list go at once (their media with them); the new ones follow as the job fetches them.
   * Says whether anything changed.
   */
  async replace(listingId: number, urls: readonly string[], kind: FeedFileKind = 'picture'): Promise<boolean> {
    const current = (await repository.urlsByListing(this.db, [listingId], kind)).get(listingId) ?? [];
    if (current.length === urls.length && current.every((url, n) => url === urls[n])) return false;
    const dropped = await this.db.transaction().execute(async (trx) => {
      const stored = await repository.deletePicturesOf(trx, listingId, kind);
      await repository.insertPictures(trx, [{ listingId, urls }], new Date().toISOString(), kind);
      return stored;
    });
    await this.media.discard(dropped);
    return true;
  }

  /**
   * One run: the due pictures, AT_ONCE in flight, claimed as they are needed for up to RUN_BUDGET_MS; 0 (run
   * again at once) when there may be more. Times count from `now` (the scheduler's tick, a test's clock).
   */
  async runOnce(now = new Date()): Promise<number | void> {
    const started = Date.now();
    const clock = () => new Date(now.getTime() + (Date.now() - started));
    const queue: Claimed[] = [];
    let exhausted = false;
    let claiming: Promise<void> | undefined;
    const claim = async () => {
      const at = clock();
      const due = await repository.claimDue(this.db, at.toISOString(), new Date(at.getTime() + CLAIM_MS).toISOString(), PER_CLAIM);
      queue.push(...due);
      if (due.length < PER_CLAIM) exhausted = true;
    };
    // What is claimed is fetched in this run, budget or not: a claimed picture left over would wait CLAIM_MS.
    const next = async (): Promise<Claimed | undefined> => {
      while (queue.length === 0) {
        if (exhausted || Date.now() - started >= RUN_BUDGET_MS) return undefined;
        claiming ??= claim().finally(() => (claiming = undefined));
        await claiming;
      }
      return queue.shift();
    };
    const worker = async () => {
      for (let picture = await next(); picture; picture = await next()) await this.fetch(picture, clock());
    };
    await Promise.all(Array.from({ length: AT_ONCE }, worker));
    if (!exhausted) return 0;
  }

  counts() {
    return repository.pictureCounts(this.db);
  }

  private async fetch(picture: Claimed, now: Date): Promise<void> {
    let mediaId: number;
    try {
      // A listing without an author cannot own pictures: the bulk writer refuses such galleries too.
      if (picture.author_id === null) throw new Error('the listing has no author to own its pictures');
      const { bytes } = await fetchGuardedBytes(picture.url, this.policy);
      mediaId =
        picture.kind === 'document'
          ? await this.media.storeDocumentFor(picture.author_id, bytes, documentTitleOf(picture.url))
          : await this.media.storeImageFor(picture.author_id, bytes);
    } catch (error) {
      const tries = picture.attempts + 1;
      const retryAt = tries < MAX_TRIES ? new Date(now.getTime() + FIRST_RETRY_MS * 4 ** (tries - 1)).toISOString() : null;
      await repository.markFailedTry(this.db, picture.id, tries, retryAt, reasonOf(error));
      return;
    }
    if (!(await repository.markStored(this.db, picture.id, mediaId))) {
      // The listing's pictures were replaced (or the listing deleted) while this one was on its way.
      await this.media.discard([mediaId]);
      return;
    }
    if (picture.kind === 'document') {
      await this.properties.setImportedAttachments(
        picture.listing_id,
        await repository.storedGallery(this.db, picture.listing_id, 'document'),
      );
    } else {
      await this.properties.setImportedGallery(picture.listing_id, await repository.storedGallery(this.db, picture.listing_id));
    }
  }
}

/** A fetched document's title: its file's name ("Brochure Villa.pdf"), as the site's visitors saw it linked. */
function documentTitleOf(url: string): string {
  let name = '';
  try {
    name = new URL(url).pathname.split('/').pop() ?? '';
    name = decodeURIComponent(name);
  } catch {
    // A name that does not decode is shown as written.
  }
  return name.slice(0, 200);
}

type Claimed = Awaited<ReturnType<typeof repository.claimDue>>[number];

/** Why a picture failed, for operators: the guard's and the upload checks' own words, never a URL's query. */
function reasonOf(error: unknown): string {
  if (error instanceof OutboundError) return error.message;
  if (error instanceof AppError) return translate('en', error.messageKey, error.messageParams);
  return error instanceof Error ? error.message : String(error);
}
