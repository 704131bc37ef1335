import { existsSync } from 'node:fs';
import path from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FileStorage } from '../../src/adapters/storage/storage.js';
import type { UserRow } from '../../src/db/schema/index.js';
import type { AuthUser } from '../../src/lib/signed-in-user.js';
import type { MediaRecord } from '../../src/modules/media/media.schemas.js';
import { MediaService } from '../../src/modules/media/media.service.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';
import { bearer, newUser, tokenFor } from '../helpers/factories.js';
import { API, type FilePart, image, keyOf, multipart, PDF, tempUploadDir } from './media-fixtures.js';

type Headers = Record<string, string>;

const expectCode = (res: LightMyRequestResponse, status: number, code: string) => {
  expect(res.statusCode, res.body).toBe(status);
  expect(res.json()).toMatchObject({ success: false, code });
};

/** Keeps files in memory and records what it was asked to do; `failDeletes` makes every delete throw. */
class RecordingStorage implements FileStorage {
  readonly files = new Map<string, Buffer>();
  readonly deleted: string[] = [];
  failDeletes = false;

  async put(key: string, body: Buffer): Promise<void> {
    this.files.set(key, body);
  }

  async delete(keys: readonly string[]): Promise<void> {
    if (this.failDeletes) throw new Error('storage is down');
    this.deleted.push(...keys);
    for (const key of keys) this.files.delete(key);
  }

  url(key: string): string {
    return `http://files.test/${key}`;
  }
}

describeEachDialect('avatars and account media (%s)', (dialect) => {
  const uploads = tempUploadDir();
  let t: TestApp;

  beforeAll(async () => {
    t = await buildTestApp(dialect, { UPLOAD_DIR: uploads.dir });
  });
  afterAll(async () => {
    await t.close();
    uploads.remove();
  });

  const account = async (role: UserRow['role'] = 'buyer') => {
    const user = await newUser(t.database.db, { role });
    const token = await tokenFor(t.app, user);
    return { user, headers: bearer(token), caller: await t.services.auth.authenticate(token) };
  };
  const postForm = async (url: string, parts: [string, string | FilePart][], headers: Headers) => {
    const body = await multipart(parts);
    return t.app.inject({ method: 'POST', url: `${API}${url}`, headers: { ...headers, ...body.headers }, payload: body.payload });
  };
  const uploadAvatar = (data: Buffer, headers: Headers) =>
    postForm('/users/upload-avatar', [['avatar', { data, filename: 'me.png' }]], headers);
  const avatarIdOf = async (userId: number) =>
    (await t.database.db.selectFrom('users').select('avatar_media_id').where('id', '=', userId).executeTakeFirstOrThrow()).avatar_media_id;
  const loginAvatarUrl = async (user: UserRow) => {
    const res = await t.app.inject({
      method: 'POST',
      url: `${API}/auth/login`,
      payload: { username: user.username, password: 'correct horse battery staple' },
    });
    return res.json().data.avatar_url as string;
  };
  const filesOf = (media: MediaRecord) =>
    [media.url, ...Object.values(media.sizes).map((s) => s.url)].map((url) => path.join(uploads.dir, keyOf(url, '/uploads/')));
  const mediaOf = async (id: number, headers: Headers) =>
    (await t.app.inject({ method: 'GET', url: `${API}/media/${id}`, headers })).json().data as MediaRecord;

  describe('POST /users/upload-avatar', () => {
    it('sets the avatar of any signed-in user and answers with its medium size', async () => {
      const { user, headers } = await account('buyer');
      const res = await uploadAvatar(await image('png', 1000, 800), headers);
      expect(res.statusCode, res.body).toBe(201);
      const data = res.json().data;
      expect(res.json()).toStrictEqual({
        success: true,
        data: { user_id: user.id, avatar_id: data.avatar_id, avatar_url: expect.any(String) },
      });
      expect(data.avatar_url).toMatch(/^http:\/\/127\.0\.0\.1:3000\/uploads\/\d{4}\/\d{2}\/[0-9a-f]{32}-medium\.png$/);
      expect(await avatarIdOf(user.id)).toBe(data.avatar_id);
      const media = await mediaOf(data.avatar_id, headers);
      expect(media.sizes.medium).toMatchObject({ url: data.avatar_url, width: 600, height: 480 });
      expect(await loginAvatarUrl(user)).toBe(data.avatar_url);
    });

    it('replaces the previous avatar, whose row and files are deleted', async () => {
      const { user, headers } = await account('agent');
      const first = (await uploadAvatar(await image('jpeg', 300, 300), headers)).json().data;
      const firstMedia = await mediaOf(first.avatar_id, headers);
      const firstFiles = filesOf(firstMedia);
      for (const file of firstFiles) expect(existsSync(file)).toBe(true);

      const res = await uploadAvatar(await image('webp', 200, 200), headers);
      expect(res.statusCode, res.body).toBe(201);
      const second = res.json().data;
      expect(second.avatar_id).not.toBe(first.avatar_id);
      expect(second.avatar_url).toMatch(/-medium\.webp$/);
      for (const file of firstFiles) expect(existsSync(file), file).toBe(false);
      expectCode(await t.app.inject({ method: 'GET', url: `${API}/media/${first.avatar_id}`, headers }), 404, 'not_found');
      expect(await avatarIdOf(user.id)).toBe(second.avatar_id);
      expect(await loginAvatarUrl(user)).toBe(second.avatar_url);
    });

    it('keeps one avatar when two uploads race', async () => {
      // The storage holds every write until both uploads have written theirs, so their transactions overlap.
      const storage = new RecordingStorage();
      let release!: () => void;
      const bothWritten = new Promise<void>((resolve) => (release = resolve));
      const put = storage.put.bind(storage);
      storage.put = async (key, body) => {
        await put(key, body);
        if (storage.files.size === 8) release();
        await bothWritten;
      };
      const service = new MediaService(t.database.db, storage, { maxImagePixels: 40_000_000 }, { error: () => {} }, t.services.users);
      const { user, caller } = await account();
      const results = await Promise.all([
        service.uploadAvatar(caller, await image('png', 64, 64)),
        service.uploadAvatar(caller, await image('png', 65, 65)),
      ]);
      const rows = await t.database.db.selectFrom('media').select('id').where('owner_id', '=', user.id).execute();
      expect(rows.map((r) => r.id)).toEqual([await avatarIdOf(user.id)]);
      expect(results.map((r) => r.avatar_id)).toContain(rows[0]!.id);
      expect(storage.files.size).toBe(4);
    });

    it('refuses PDF and other non-images (415), leaving the avatar as it was', async () => {
      const { user, headers } = await account();
      expectCode(await uploadAvatar(PDF, headers), 415, 'unsupported_media_type');
      expectCode(await uploadAvatar(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'), headers), 415, 'unsupported_media_type');
      expect(await avatarIdOf(user.id)).toBeNull();
    });

    it('answers 401 without a token and 400 for a missing or unknown field', async () => {
      const { headers } = await account();
      const png = { data: await image('png', 10, 10) };
      expectCode(await uploadAvatar(png.data, {}), 401, 'unauthorized');
      const missing = await postForm('/users/upload-avatar', [['file', png]], headers);
      expectCode(missing, 400, 'validation_failed');
      expect(missing.json().errors[0].field).toBe('file');
      const noFile = await postForm('/users/upload-avatar', [], headers);
      expectCode(noFile, 400, 'validation_failed');
      expect(noFile.json().errors[0].field).toBe('avatar');
      expectCode(
        await postForm(
          '/users/upload-avatar',
          [
            ['avatar', png],
            ['title', 'x'],
          ],
          headers,
        ),
        400,
        'validation_failed',
      );
    });

    it('clears the avatar when its media item is deleted', async () => {
      const { user, headers } = await account();
      const { avatar_id } = (await uploadAvatar(await image('png', 50, 50), headers)).json().data;
      expect((await t.app.inject({ method: 'DELETE', url: `${API}/media/${avatar_id}`, headers })).statusCode).toBe(200);
      expect(await avatarIdOf(user.id)).toBeNull();
      expect(await loginAvatarUrl(user)).toBe('');
    });
  });

  describe('MediaService.deleteAllOwnedBy', () => {
    it('deletes every media row of the user and their files, and nobody else’s', async () => {
      const { user, headers } = await account('owner');
      const other = await account('owner');
      const uploaded: MediaRecord[] = [];
      for (const data of [await image('jpeg', 40, 40), PDF]) {
        const res = await postForm('/media/upload', [['file', { data }]], headers);
        uploaded.push(res.json().data);
      }
      const avatarId = (await uploadAvatar(await image('png', 40, 40), headers)).json().data.avatar_id;
      uploaded.push(await mediaOf(avatarId, headers));
      const kept = (await postForm('/media/upload', [['file', { data: PDF }]], other.headers)).json().data as MediaRecord;

      await t.services.media.deleteAllOwnedBy(user.id);

      const rows = await t.database.db.selectFrom('media').select('id').where('owner_id', '=', user.id).execute();
      expect(rows).toEqual([]);
      expect(await avatarIdOf(user.id)).toBeNull();
      for (const file of uploaded.flatMap(filesOf)) expect(existsSync(file), file).toBe(false);
      for (const file of filesOf(kept)) expect(existsSync(file)).toBe(true);
      await expect(t.services.media.deleteAllOwnedBy(user.id)).resolves.toBeUndefined();
    });

    it('logs a storage failure instead of throwing, once the rows are gone', async () => {
      const storage = new RecordingStorage();
      const logged: { details: object; message: string }[] = [];
      const service = new MediaService(
        t.database.db,
        storage,
        { maxImagePixels: 40_000_000 },
        {
          error: (details, message) => logged.push({ details, message }),
        },
        t.services.users,
      );
      const { user, caller } = await account('seller');
      await service.upload(caller, { file: await image('jpeg', 30, 30), fields: {} });
      storage.failDeletes = true;

      await expect(service.deleteAllOwnedBy(user.id)).resolves.toBeUndefined();
      expect(await t.database.db.selectFrom('media').select('id').where('owner_id', '=', user.id).execute()).toEqual([]);
      expect(logged).toHaveLength(1);
      expect(logged[0]!.details).toMatchObject({ keys: [...storage.files.keys()] });
    });
  });

  it('removes the files it wrote when the row cannot be inserted', async () => {
    const storage = new RecordingStorage();
    const service = new MediaService(t.database.db, storage, { maxImagePixels: 40_000_000 }, { error: () => {} }, t.services.users);
    const { caller } = await account('seller');
    const ghost = { ...caller, id: 2_147_483_647 } satisfies AuthUser; // no such user: the foreign key refuses the row
    await expect(service.upload(ghost, { file: await image('png', 30, 30), fields: {} })).rejects.toThrow();
    expect(storage.deleted).toHaveLength(4);
    expect(storage.files.size).toBe(0);
  });
});
