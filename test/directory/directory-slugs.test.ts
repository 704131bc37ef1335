import type { Kysely } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { DB } from '../../src/db/schema/index.js';
import type { AuthUser } from '../../src/lib/signed-in-user.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';
import { newAgency, newAgencyWithAgent, newAgent, newMedia, newUser } from '../helpers/factories.js';

const API = '/realty-api/v1';
const SIZES = JSON.stringify({
  medium: { key: 'pictures/p-medium.jpg', width: 600, height: 400 },
  large: { key: 'pictures/p-large.jpg', width: 1200, height: 800 },
});

const callerOf = (user: { id: number; role: AuthUser['role'] }): AuthUser => ({
  id: user.id,
  role: user.role,
  sessionId: 'test',
  tokenExpiresAt: new Date(Date.now() + 60_000),
});

describeEachDialect('directory records by slug, with their pictures (%s)', (dialect) => {
  let t: TestApp;
  let db: Kysely<DB>;

  beforeAll(async () => {
    t = await buildTestApp(dialect);
    db = t.database.db;
  });
  afterAll(() => t.close());

  it('finds an agent by its slug as GET /agents/{id} answers it, with its picture and sizes', async () => {
    const owner = await newUser(db, { role: 'agent' });
    const media = await newMedia(db, owner.id, { sizes: SIZES, width: 2400, height: 1600 });
    const id = await newAgent(db, { slug: 'ana-lopez', picture_media_id: media.id });
    const { agent, picture } = await t.services.agents.bySlug(null, 'ana-lopez');
    const api = (await t.app.inject({ method: 'GET', url: `${API}/agents/${id}` })).json().data;
    expect(agent).toEqual(api);
    expect(picture).toMatchObject({ id: media.id, width: 2400, height: 1600 });
    expect(picture!.sizes.medium).toMatchObject({ width: 600, height: 400 });
    expect(picture!.sizes.large?.url).toMatch(/p-large\.jpg$/);
  });

  it('answers 404 for an unknown slug and for a hidden agent, but shows the hidden one to its own user', async () => {
    await expect(t.services.agents.bySlug(null, 'nobody-here')).rejects.toMatchObject({ status: 404 });
    const user = await newUser(db, { role: 'agent' });
    await newAgent(db, { slug: 'hidden-hank', visible: 0, user_id: user.id });
    await expect(t.services.agents.bySlug(null, 'hidden-hank')).rejects.toMatchObject({ status: 404 });
    await expect(t.services.agents.bySlug(callerOf(await newUser(db)), 'hidden-hank')).rejects.toMatchObject({ status: 404 });
    const own = await t.services.agents.bySlug(callerOf(user), 'hidden-hank');
    expect(own).toMatchObject({ agent: { visible: false }, picture: null });
  });

  it('finds an agency by its slug with its logo, else 404', async () => {
    const owner = await newUser(db, { role: 'agency' });
    const media = await newMedia(db, owner.id, { sizes: SIZES });
    const id = await newAgency(db, { slug: 'sol-homes', logo_media_id: media.id });
    const { agency, logo } = await t.services.agencies.bySlug('sol-homes');
    expect(agency).toEqual((await t.app.inject({ method: 'GET', url: `${API}/agencies/${id}` })).json().data);
    expect(logo).toMatchObject({ id: media.id, sizes: { medium: { width: 600, height: 400 } } });
    await expect(t.services.agencies.bySlug('no-such-agency')).rejects.toMatchObject({ status: 404 });
  });

  it('gives the pictures and logos of a list in one query each, leaving out records without one', async () => {
    const { agencyId, agentId, agentUser } = await newAgencyWithAgent(db);
    const picture = await newMedia(db, agentUser.id, { sizes: SIZES });
    await db.updateTable('agents').set({ picture_media_id: picture.id }).where('id', '=', agentId).execute();
    const bare = await newAgent(db);
    const pictures = await t.services.agents.picturesOf([agentId, bare, 999_999]);
    expect([...pictures.keys()]).toEqual([agentId]);
    expect(pictures.get(agentId)?.id).toBe(picture.id);
    expect((await t.services.agencies.logosOf([agencyId])).size).toBe(0);
    expect((await t.services.agents.picturesOf([])).size).toBe(0);
  });
});
