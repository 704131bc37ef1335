import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { readWxrSite } from '../../src/adapters/feeds/wxr/wxr-reader.js';
import type { UserRow } from '../../src/db/schema/index.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';
import { newUser } from '../helpers/factories.js';
import { image } from '../media/media-fixtures.js';

/**
 * A WordPress site running Houzez, moved over from its Tools → Export file (test/adapters/feeds/wxr/fixtures):
 * two authors, an agency, two agents (one a draft), terms with a parent, properties with their meta and
 * pictures. The site's address and its uploads point at a local server here, except one picture on another host.
 */
const FIXTURE = fs.readFileSync(path.join(import.meta.dirname, '../adapters/feeds/wxr/fixtures/houzez-site.xml'), 'utf8');

async function siteServer(): Promise<{ base: string; hits: string[]; close(): Promise<void> }> {
  const jpeg = await image('jpeg', 48, 32);
  const hits: string[] = [];
  const server = http.createServer((request, response) => {
    hits.push(request.url ?? '');
    response.end(jpeg);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { base: `http://127.0.0.1:${port}`, hits, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** The export as readWxrSite reads it, its properties set aside in a temporary file of their own. */
function siteOf(input: NodeJS.ReadableStream) {
  return readWxrSite(input, path.join(os.tmpdir(), `realty-wxr-spool-${randomUUID()}.jsonl`));
}

function exportOf(base: string): string {
  return FIXTURE.replace('<link>https://costa-homes.example</link>', `<link>${base}</link>`)
    .replace('<wp:base_site_url>https://costa-homes.example</wp:base_site_url>', `<wp:base_site_url>${base}</wp:base_site_url>`)
    .replaceAll('https://costa-homes.example/wp-content/uploads/2024/03/', `${base}/wp-content/uploads/2024/03/`)
    .replace('https://costa-homes.example/wp-content/uploads/2024/05/salón-1.jpg', 'https://cdn.elsewhere.example/salon-1.jpg');
}

describeEachDialect('a WordPress site moved over (%s)', (dialect) => {
  let t: TestApp;
  let admin: UserRow;
  let uploads: string;
  let server: Awaited<ReturnType<typeof siteServer>>;
  let file: string;

  beforeAll(async () => {
    uploads = fs.mkdtempSync(path.join(os.tmpdir(), 'realty-wxr-'));
    server = await siteServer();
    file = path.join(uploads, 'export.xml');
    fs.writeFileSync(file, exportOf(server.base));
    t = await buildTestApp(dialect, { UPLOAD_DIR: uploads, PUBLIC_URL: 'https://realty.example', IMPORT_ALLOWED_HOSTS: '127.0.0.1' });
    admin = await newUser(t.database.db, { role: 'administrator' });
  });
  afterAll(async () => {
    await t.close();
    await server.close();
    fs.rmSync(uploads, { recursive: true, force: true });
  });

  const importSite = () =>
    t.services.wordpressSiteImporter.run(siteOf(fs.createReadStream(file)), { source: 'costa-homes', actorId: admin.id });

  it('a dry run counts the properties and writes nothing: no account, term, listing or picture', async () => {
    const { db } = t.database;
    const before = await Promise.all(
      ['users', 'terms', 'listings', 'feed_pictures', 'agents', 'agencies'].map((table) =>
        db
          .selectFrom(table as 'users')
          .select('id')
          .execute(),
      ),
    );
    const summary = await t.services.wordpressSiteImporter.run(siteOf(fs.createReadStream(file)), {
      source: 'costa-homes',
      actorId: admin.id,
      dryRun: true,
    });
    expect(summary).toMatchObject({ dryRun: true, created: 2, rejected: 0, accountsCreated: 0 });
    const after = await Promise.all(
      ['users', 'terms', 'listings', 'feed_pictures', 'agents', 'agencies'].map((table) =>
        db
          .selectFrom(table as 'users')
          .select('id')
          .execute(),
      ),
    );
    expect(after).toEqual(before);
  });

  it('shows the listings through the API with their fields, terms, places, agents, agency, owner and pictures', async () => {
    const summary = await importSite();
    expect(summary).toMatchObject({ created: 2, updated: 0, rejected: 0, accountsCreated: 5, picturesSkipped: 1 });
    const { db } = t.database;
    const emails = await db
      .selectFrom('users')
      .select(['email', 'role', 'password_hash'])
      .where('email', 'like', '%costa-homes.example')
      .orderBy('email')
      .execute();
    expect(emails).toEqual([
      { email: 'admin@costa-homes.example', role: 'owner', password_hash: null },
      { email: 'lucia@costa-homes.example', role: 'agent', password_hash: null },
      { email: 'maria@costa-homes.example', role: 'owner', password_hash: null },
      { email: 'office@costa-homes.example', role: 'agency', password_hash: null },
      { email: 'tom@costa-homes.example', role: 'agent', password_hash: null },
    ]);

    const [villaSource] = await db.selectFrom('listing_sources').select('listing_id').where('source_key', '=', '101').execute();
    while ((await t.services.feedPictures.runOnce()) === 0);
    const { body } = await t.app.inject({ method: 'GET', url: `/realty-api/v1/properties/${villaSource!.listing_id}` });
    const villa = JSON.parse(body).data;
    expect(villa).toMatchObject({
      title: 'Villa with sea views in Nueva Andalucía',
      status: 'publish',
      price: 1495000,
      second_price: 1350000,
      currency: 'EUR',
      price_prefix: 'From',
      bedrooms: 4,
      bathrooms: 3,
      rooms: 9,
      garage: 2,
      size: 2150,
      size_unit: 'sqft',
      year_built: 2019,
      reference: 'CH-101',
      featured: true,
      agent_display: 'agent_info',
      video_url: 'https://www.youtube.com/watch?v=abc123',
    });
    expect(villa.description).toContain('<strong>sea views</strong>');
    expect(villa.additional_features).toEqual([
      { title: 'Orientación', value: 'Sur' },
      { title: 'Año de reforma', value: '2021' },
    ]);
    expect(villa.floor_plans.map((plan: { title: string }) => plan.title)).toEqual(['Planta baja', 'Ático']);
    const names = (list: { name: string }[]) => list.map((term) => term.name);
    expect(names(villa.property_type)).toEqual(['Villa']);
    expect(names(villa.features)).toEqual(['Sea Views', 'Pool']);
    expect(names(villa.property_status)).toEqual(['For Sale']);
    expect(names(villa.property_label)).toEqual(['Hot Offer']);
    expect(villa.address).toMatchObject({
      address: 'Calle del Sol 5, 29660 Marbella, España',
      zipcode: '29660',
      latitude: 36.5101,
      longitude: -4.8824,
      country: { name: 'Spain' },
      state: { name: 'Málaga' },
      city: { name: 'Marbella' },
      area: { name: 'Nueva Andalucía' },
    });
    expect(villa.agents.map((agent: { name: string }) => agent.name)).toEqual(['Tom Baker', 'Lucía Fernández']);
    expect(villa.agency?.name).toBe('Costa Homes Marbella');
    const [owner] = await db
      .selectFrom('listings')
      .innerJoin('users', 'users.id', 'listings.author_id')
      .select('users.email')
      .where('listings.id', '=', villaSource!.listing_id)
      .execute();
    expect(owner!.email).toBe('maria@costa-homes.example');
    expect(villa.gallery).toHaveLength(2);
    expect([...server.hits].sort()).toEqual([
      '/wp-content/uploads/2024/03/villa-pool.jpg',
      '/wp-content/uploads/2024/03/villa-terrace.jpg',
    ]);
    const order = await db
      .selectFrom('feed_pictures')
      .select(['url', 'state', 'media_id'])
      .where('listing_id', '=', villaSource!.listing_id)
      .orderBy('position')
      .execute();
    // The featured picture (_thumbnail_id 401) first, then the rest of fave_property_images (402; 999 is no attachment).
    expect(order.map((picture) => [new URL(picture.url).pathname, picture.state])).toEqual([
      ['/wp-content/uploads/2024/03/villa-terrace.jpg', 'stored'],
      ['/wp-content/uploads/2024/03/villa-pool.jpg', 'stored'],
    ]);
    expect(villa.gallery.map((media: { id: number }) => media.id)).toEqual(order.map((picture) => picture.media_id));

    // Villa sits under Residential, as on the site.
    const types = await db
      .selectFrom('terms as t')
      .leftJoin('terms as p', 'p.id', 't.parent_id')
      .select(['t.name', 'p.name as parent'])
      .where('t.taxonomy', '=', 'property_type')
      .orderBy('t.name')
      .execute();
    expect(types).toEqual([
      // A term a property names that the export's term list lacks is made as the import meets it.
      { name: 'Apartment', parent: null },
      { name: 'Residential', parent: null },
      { name: 'Villa', parent: 'Residential' },
    ]);
    const lucia = await db
      .selectFrom('agents')
      .innerJoin('agencies', 'agencies.id', 'agents.agency_id')
      .select(['agents.phone', 'agents.position', 'agencies.name'])
      .where('agents.email', '=', 'lucia@costa-homes.example')
      .executeTakeFirstOrThrow();
    expect(lucia).toEqual({ phone: '+34 952 000 112', position: 'Directora comercial', name: 'Costa Homes Marbella' });
  });

  it('imports the same export again without writing anything new', async () => {
    const summary = await importSite();
    expect(summary).toMatchObject({ created: 0, updated: 0, unchanged: 2, rejected: 0, accountsCreated: 0 });
  });

  it('makes an author whose e-mail is an agent’s that agent’s account, owning the author’s properties', async () => {
    const other = await buildTestApp(dialect, { UPLOAD_DIR: uploads, IMPORT_ALLOWED_HOSTS: '127.0.0.1' });
    try {
      const otherAdmin = await newUser(other.database.db, { role: 'administrator' });
      const agentAuthor = path.join(uploads, 'agent-author.xml');
      fs.writeFileSync(agentAuthor, exportOf(server.base).replace('[maria@costa-homes.example]', '[lucia@costa-homes.example]'));
      const summary = await other.services.wordpressSiteImporter.run(siteOf(fs.createReadStream(agentAuthor)), {
        source: 'costa-homes',
        actorId: otherAdmin.id,
      });
      expect(summary).toMatchObject({ created: 2, rejected: 0, accountsCreated: 4 });
      const owners = await other.database.db
        .selectFrom('listing_sources')
        .innerJoin('listings', 'listings.id', 'listing_sources.listing_id')
        .innerJoin('users', 'users.id', 'listings.author_id')
        .select(['listing_sources.source_key', 'users.email', 'users.role'])
        .orderBy('listing_sources.source_key')
        .execute();
      expect(owners).toEqual([
        { source_key: '101', email: 'lucia@costa-homes.example', role: 'agent' },
        { source_key: '102', email: 'admin@costa-homes.example', role: 'owner' },
      ]);
    } finally {
      await other.close();
    }
  });

  it('refuses a file that is not a WordPress export before writing anything', async () => {
    const before = await t.database.db.selectFrom('listings').select('id').execute();
    await expect(
      t.services.wordpressSiteImporter.run(siteOf(Readable.from(['<!DOCTYPE x [<!ENTITY a "b">]><rss/>'])), {
        source: 'bad',
        actorId: admin.id,
      }),
    ).rejects.toThrow(/DOCTYPE/);
    expect(await t.database.db.selectFrom('listings').select('id').execute()).toEqual(before);
  });
});
