import { type Kysely, sql } from 'kysely';
import { afterEach, expect, it } from 'vitest';
import type { DB } from '../../src/db/schema/index.js';
import { appliedMigrations, emptyDatabase, describeEachDialect } from '../helpers/database.js';
import { newMedia, newUser } from '../helpers/factories.js';

describeEachDialect('0003 makes media storage keys shareable (%s)', (dialect) => {
  let dispose: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await dispose?.();
    dispose = undefined;
  });

  it('keeps media rows, their ids and the foreign keys that point at them', async () => {
    const empty = await emptyDatabase(dialect);
    dispose = empty.dispose;
    const db: Kysely<DB> = empty.database.db;
    expect(await appliedMigrations(empty.migrator.migrateTo('0002_accounts'))).toEqual(['0001_initial:Success', '0002_accounts:Success']);

    // Data as 0002 left it: a user with an avatar, a gallery image on a listing, a plain upload.
    const user = await newUser(db, { role: 'seller' });
    // Inserted directly: the listing factory writes columns that later migrations add (0006 search columns).
    const at = new Date().toISOString();
    const { id: listingId } = await db
      .insertInto('listings')
      .values({
        slug: 'before-0003',
        title: 'A listing',
        status: 'publish',
        currency: 'USD',
        author_id: user.id,
        created_at: at,
        updated_at: at,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const avatar = await newMedia(db, user.id, { title: 'Me', sizes: '{"thumbnail":{"key":"a/t.jpg","width":150,"height":150}}' });
    const gallery = await newMedia(db, user.id, { listing_id: listingId, position: 3, mime_type: 'image/png', alt: 'Front' });
    const upload = await newMedia(db, user.id, { mime_type: 'application/pdf', width: null, height: null });
    await db.updateTable('users').set({ avatar_media_id: avatar.id }).where('id', '=', user.id).execute();

    expect(await appliedMigrations(empty.migrator.migrateTo('0003_listings'))).toEqual(['0003_listings:Success']);

    const rows = await db.selectFrom('media').selectAll().orderBy('id').execute();
    expect(rows).toEqual([avatar, gallery, upload]);
    expect(gallery).toMatchObject({ listing_id: listingId, position: 3, alt: 'Front' });
    const owner = await db.selectFrom('users').select('avatar_media_id').where('id', '=', user.id).executeTakeFirstOrThrow();
    expect(owner.avatar_media_id).toBe(avatar.id);

    // New rows keep counting after the highest id (the rebuilt SQLite table keeps its AUTOINCREMENT state).
    const later = await newMedia(db, user.id);
    expect(later.id).toBeGreaterThan(upload.id);

    // Two rows may now share one stored file.
    const shared = await newMedia(db, user.id, { storage_key: avatar.storage_key });
    expect(shared.storage_key).toBe(avatar.storage_key);
    expect(await db.selectFrom('media').select('id').where('storage_key', '=', avatar.storage_key).execute()).toHaveLength(2);

    // Foreign keys are still enforced, both into media and out of it.
    if (dialect === 'sqlite') {
      expect((await sql<{ foreign_keys: number }>`pragma foreign_keys`.execute(db)).rows).toEqual([{ foreign_keys: 1 }]);
      expect((await sql`pragma foreign_key_check`.execute(db)).rows).toEqual([]);
    }
    await expect(newMedia(db, 999_999)).rejects.toThrow(/foreign key/i);
    await expect(newMedia(db, user.id, { listing_id: 999_999 })).rejects.toThrow(/foreign key/i);
    await expect(db.updateTable('users').set({ avatar_media_id: 999_999 }).where('id', '=', user.id).execute()).rejects.toThrow(
      /foreign key/i,
    );

    // Deleting the avatar's media row clears the avatar (ON DELETE SET NULL from users.avatar_media_id).
    await db.deleteFrom('media').where('id', '=', avatar.id).execute();
    const after = await db.selectFrom('users').select('avatar_media_id').where('id', '=', user.id).executeTakeFirstOrThrow();
    expect(after.avatar_media_id).toBeNull();

    // Deleting the listing detaches its gallery image (ON DELETE SET NULL from media.listing_id).
    await db.deleteFrom('listings').where('id', '=', listingId).execute();
    const detached = await db.selectFrom('media').select(['listing_id']).where('id', '=', gallery.id).executeTakeFirstOrThrow();
    expect(detached.listing_id).toBeNull();

    // Deleting the user removes their media (ON DELETE CASCADE from media.owner_id).
    await db.deleteFrom('users').where('id', '=', user.id).execute();
    expect(await db.selectFrom('media').select('id').execute()).toEqual([]);
  });

  it('indexes storage_key without making it unique, and keeps the media indexes', async () => {
    const empty = await emptyDatabase(dialect);
    dispose = empty.dispose;
    const db = empty.database.db;
    await appliedMigrations(empty.migrator.migrateToLatest());
    const indexes =
      dialect === 'sqlite'
        ? (await sql<{ name: string; unique: number }>`select name, "unique" from pragma_index_list('media')`.execute(db)).rows.map(
            (row) => `${row.name}:${row.unique === 1 ? 'unique' : 'plain'}`,
          )
        : (
            await sql<{ indexname: string; indexdef: string }>`select indexname, indexdef from pg_indexes
              where tablename = 'media' and schemaname = current_schema()`.execute(db)
          ).rows.map((row) => `${row.indexname}:${/unique/i.test(row.indexdef) ? 'unique' : 'plain'}`);
    // The primary key's index aside (PostgreSQL names it; SQLite's INTEGER PRIMARY KEY has none), no unique index.
    expect(indexes.filter((name) => name !== 'media_pkey:unique').sort()).toEqual([
      'media_listing_idx:plain',
      'media_owner_idx:plain',
      'media_storage_key_idx:plain',
    ]);
  });
});
