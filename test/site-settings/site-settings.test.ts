import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DB, UserRow } from '../../src/db/schema/index.js';
import { DEFAULT_SETTINGS, HOME_SECTIONS as SETTINGS_SECTIONS } from '../../src/modules/site-settings/index.js';
import { DEFAULT_BRAND, HOME_SECTIONS } from '../../src/site/index.js';
import { buildPeerApp, buildTestApp, type TestApp } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';
import { type Auth, newMedia, newSignedInUser, newUser } from '../helpers/factories.js';
import { expectValidHtml, parsePage } from '../helpers/html.js';

const URL = '/realty-api/v1/site-settings';
const PUBLIC_URL = 'https://realty.example';

/** Stored sizes as the media module writes them, so that the answer has URLs. */
const SIZES = JSON.stringify({
  medium: { key: 'brand/logo-medium.png', width: 600, height: 200 },
  large: { key: 'brand/hero-large.jpg', width: 1200, height: 800 },
});

describe('the site’s defaults and the settings’ defaults', () => {
  it('are the same brand, with the same home sections', () => {
    expect(SETTINGS_SECTIONS).toEqual(HOME_SECTIONS);
    expect({
      siteName: DEFAULT_SETTINGS.site_name,
      tagline: DEFAULT_SETTINGS.tagline,
      logoUrl: DEFAULT_SETTINGS.logo_url,
      primaryColor: DEFAULT_SETTINGS.primary_color,
      accentColor: DEFAULT_SETTINGS.accent_color,
      contactEmail: DEFAULT_SETTINGS.contact_email,
      contactPhone: DEFAULT_SETTINGS.contact_phone,
      contactAddress: DEFAULT_SETTINGS.contact_address,
      heroImageUrl: DEFAULT_SETTINGS.hero_image_url,
      homeSections: DEFAULT_SETTINGS.home_sections,
    }).toEqual({ ...DEFAULT_BRAND, homeSections: [...DEFAULT_BRAND.homeSections] });
  });
});

describeEachDialect('GET and PUT /site-settings (%s)', (dialect) => {
  let t: TestApp;
  let db: Kysely<DB>;
  let admin: { user: UserRow; auth: Auth };
  let otherAdmin: { user: UserRow; auth: Auth };

  const put = (auth: Auth | undefined, payload: unknown) =>
    t.app.inject({ method: 'PUT', url: URL, payload: payload as object, ...(auth ? { headers: auth } : {}) });

  beforeAll(async () => {
    t = await buildTestApp(dialect, { PUBLIC_URL });
    db = t.database.db;
    admin = await newSignedInUser(t, { role: 'administrator' });
    otherAdmin = await newSignedInUser(t, { role: 'administrator' });
  });
  afterAll(() => t.close());

  it('answers the defaults to anyone before any change, with an ETag to revalidate', async () => {
    const res = await t.app.inject({ method: 'GET', url: URL });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ success: true, data: DEFAULT_SETTINGS });
    expect(res.headers['cache-control']).toBe('public, no-cache');
    const again = await t.app.inject({ method: 'GET', url: URL, headers: { 'if-none-match': String(res.headers.etag) } });
    expect(again.statusCode).toBe(304);
  });

  it('refuses anonymous callers (401) and every role but administrator (403)', async () => {
    expect((await put(undefined, { site_name: 'X' })).statusCode).toBe(401);
    for (const role of ['manager', 'agency', 'agent', 'buyer'] as const) {
      const { auth } = await newSignedInUser(t, { role });
      const res = await put(auth, { site_name: 'X' });
      expect(res.statusCode, role).toBe(403);
      expect(res.json()).toMatchObject({ success: false, code: 'forbidden' });
    }
    expect((await t.app.inject({ method: 'GET', url: URL })).json().data.site_name).toBe('Realty');
  });

  it('changes the given fields only, cleaned, and answers the whole record', async () => {
    const res = await put(admin.auth, {
      site_name: '  <b>Sunny</b>   Homes ',
      tagline: 'Homes <script>alert(1)</script>by the sea',
      primary_color: '#0B4F6C',
      contact_email: 'Hello@Sunny.Example',
      contact_phone: '+34 600 000 000',
      contact_address: 'Calle Mayor 1\n28013 Madrid',
      home_sections: ['featured', 'search'],
    });
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data;
    expect(data).toMatchObject({
      site_name: 'Sunny Homes',
      tagline: 'Homes alert(1)by the sea',
      primary_color: '#0b4f6c',
      accent_color: DEFAULT_SETTINGS.accent_color,
      contact_email: 'hello@sunny.example',
      contact_phone: '+34 600 000 000',
      contact_address: 'Calle Mayor 1 28013 Madrid',
      home_sections: ['featured', 'search'],
      logo_id: null,
      logo_url: null,
    });
    expect(data.updated_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    const read = await t.app.inject({ method: 'GET', url: URL });
    expect(read.json().data).toEqual(data);
    // Partial: a later change keeps what it does not name.
    const later = await put(admin.auth, { tagline: '' });
    expect(later.json().data).toMatchObject({ site_name: 'Sunny Homes', tagline: '', primary_color: '#0b4f6c' });
  });

  it('refuses unknown fields, bad formats and an empty change, naming the field', async () => {
    const cases: [unknown, string][] = [
      [{ site_name: 'X', owner_id: 1 }, 'owner_id'],
      [{ primary_color: 'red' }, 'primary_color'],
      [{ accent_color: '#12345' }, 'accent_color'],
      [{ contact_email: 'not an address' }, 'contact_email'],
      [{ contact_phone: 'call me' }, 'contact_phone'],
      [{ home_sections: ['search', 'search'] }, 'home_sections'],
      [{ home_sections: ['banner'] }, 'home_sections.0'],
      [{ site_name: '' }, 'site_name'],
      [{ site_name: '<i></i>' }, 'site_name'],
      [{ logo_id: 'x' }, 'logo_id'],
    ];
    for (const [body, field] of cases) {
      const res = await put(admin.auth, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(
        res.json().errors.map((e: { field: string }) => e.field),
        JSON.stringify(body),
      ).toContain(field);
    }
    expect((await put(admin.auth, {})).statusCode).toBe(400);
  });

  it('refuses colours that would make the site fail AA contrast, saying the ratio', async () => {
    const light = await put(admin.auth, { primary_color: '#7fb3d5' });
    expect(light.statusCode).toBe(400);
    const [error] = light.json().errors;
    expect(error.field).toBe('primary_color');
    expect(error.message).toContain('2.25:1');
    expect(error.message).toContain('4.5:1');
    // Just below and just above 4.5:1 against white.
    expect((await put(admin.auth, { primary_color: '#777777' })).statusCode).toBe(400);
    expect((await put(admin.auth, { primary_color: '#767676' })).statusCode).toBe(200);
    // Accent: dark text on it, and a focus ring on white.
    const dark = await put(admin.auth, { accent_color: '#2a2a2a' });
    expect(dark.statusCode).toBe(400);
    expect(dark.json().errors[0]).toMatchObject({ field: 'accent_color' });
    expect((await put(admin.auth, { accent_color: '#ffff00' })).statusCode).toBe(400);
    // Both wrong at once: both reported.
    const both = await put(admin.auth, { primary_color: '#ffffff', accent_color: '#000000', site_name: '<b></b>' });
    expect(
      both
        .json()
        .errors.map((e: { field: string }) => e.field)
        .sort(),
    ).toEqual(['accent_color', 'primary_color', 'site_name']);
    expect((await t.app.inject({ method: 'GET', url: URL })).json().data.primary_color).toBe('#767676');
  });

  it('takes pictures only from the caller’s own image uploads, answered as URLs', async () => {
    const own = await newMedia(db, admin.user.id, { sizes: SIZES, mime_type: 'image/png' });
    const others = await newMedia(db, otherAdmin.user.id, { sizes: SIZES });
    const document = await newMedia(db, admin.user.id, { mime_type: 'application/pdf', width: null, height: null });
    for (const id of [others.id, document.id, 2_000_000]) {
      const res = await put(admin.auth, { logo_id: id });
      expect(res.statusCode, String(id)).toBe(400);
      expect(res.json().errors).toEqual([{ field: 'logo_id', message: 'must be an image you uploaded' }]);
    }
    const res = await put(admin.auth, { logo_id: own.id, hero_image_id: own.id });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({
      logo_id: own.id,
      logo_url: `${PUBLIC_URL}/uploads/brand/logo-medium.png`,
      hero_image_id: own.id,
      hero_image_url: `${PUBLIC_URL}/uploads/brand/hero-large.jpg`,
    });
    // The home page's banner shows the picture behind its text, out of the flow (no layout shift), as decoration.
    const homeHtml = (await t.app.inject({ method: 'GET', url: '/' })).body;
    await expectValidHtml(homeHtml, 'the home page with a hero picture');
    const hero = parsePage(homeHtml).root.querySelector('.hero--picture .hero__picture');
    expect(hero?.getAttribute('src')).toBe(`${PUBLIC_URL}/uploads/brand/hero-large.jpg`);
    expect(hero?.getAttribute('alt')).toBe('');
    // Another administrator may keep them (leaving the fields out) and may remove them.
    expect((await put(otherAdmin.auth, { site_name: 'Sunny Homes' })).json().data.logo_id).toBe(own.id);
    expect((await put(otherAdmin.auth, { hero_image_id: null })).json().data).toMatchObject({ hero_image_id: null, hero_image_url: null });
  });

  it('forgets a picture whose upload is deleted, at once', async () => {
    const logo = await newMedia(db, admin.user.id, { sizes: SIZES });
    expect((await put(admin.auth, { logo_id: logo.id })).statusCode).toBe(200);
    const home = parsePage((await t.app.inject({ method: 'GET', url: '/' })).body);
    expect(home.root.querySelector('.brand__logo')?.getAttribute('src')).toBe(`${PUBLIC_URL}/uploads/brand/logo-medium.png`);
    const deleted = await t.app.inject({ method: 'DELETE', url: `/realty-api/v1/media/${logo.id}`, headers: admin.auth });
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: URL })).json().data).toMatchObject({ logo_id: null, logo_url: null });
    expect(parsePage((await t.app.inject({ method: 'GET', url: '/' })).body).root.querySelector('.brand__logo')).toBeNull();
  });

  it('shows on the website at once: name, colours, sections, with a new ETag and brand stylesheet', async () => {
    const before = await t.app.inject({ method: 'GET', url: '/' });
    const beforeCss = parsePage(before.body).root.querySelectorAll('link[rel="stylesheet"]')[1]!.getAttribute('href')!;
    expect(
      (await put(admin.auth, { site_name: 'Casa Azul', primary_color: '#14532d', home_sections: ['search', 'cities'] })).statusCode,
    ).toBe(200);
    const after = await t.app.inject({ method: 'GET', url: '/', headers: { 'if-none-match': String(before.headers.etag) } });
    expect(after.statusCode).toBe(200);
    expect(after.headers.etag).not.toBe(before.headers.etag);
    const page = parsePage(after.body);
    expect(page.root.querySelector('.brand__name')?.text).toBe('Casa Azul');
    expect(page.meta('og:site_name')).toBe('Casa Azul');
    expect(page.root.querySelector('#featured')).toBeNull();
    const css = page.root.querySelectorAll('link[rel="stylesheet"]')[1]!.getAttribute('href')!;
    expect(css).toMatch(/^\/site-assets\/brand\.css\?v=/);
    expect(css).not.toBe(beforeCss);
    expect((await t.app.inject({ method: 'GET', url: css })).body).toContain('--brand:#14532d');
    expect(page.root.querySelector('meta[name="theme-color"]')?.getAttribute('content')).toBe('#14532d');
  });

  it('shows in another server process on the same database without a restart', async () => {
    const peer = await buildPeerApp(t);
    try {
      const name = () => peer.app.inject({ method: 'GET', url: URL }).then((res) => res.json().data.site_name as string);
      expect(await name()).toBe('Casa Azul');
      expect((await put(admin.auth, { site_name: 'Casa Verde' })).statusCode).toBe(200);
      // The peer re-reads the stamp within CACHE_REVALIDATE_MS (100 ms in tests).
      await expect.poll(name, { timeout: 5_000, interval: 50 }).toBe('Casa Verde');
      await expect
        .poll(async () => parsePage((await peer.app.inject({ method: 'GET', url: '/' })).body).root.querySelector('.brand__name')?.text)
        .toBe('Casa Verde');
    } finally {
      await peer.close();
    }
  });

  it('writes nothing when a change changes nothing (the pages’ caches stay)', async () => {
    const first = (await t.app.inject({ method: 'GET', url: '/' })).headers.etag;
    const stamp = await db.selectFrom('cache_versions').select('version').where('name', '=', 'site_settings').executeTakeFirstOrThrow();
    expect((await put(admin.auth, { site_name: 'Casa Verde' })).statusCode).toBe(200);
    const after = await db.selectFrom('cache_versions').select('version').where('name', '=', 'site_settings').executeTakeFirstOrThrow();
    expect(after.version).toBe(stamp.version);
    expect((await t.app.inject({ method: 'GET', url: '/' })).headers.etag).toBe(first);
  });

  it('keeps its settings when the administrator who set them is deleted', async () => {
    const admin2 = await newUser(db, { role: 'administrator' });
    await db.updateTable('site_settings').set({ updated_by: admin2.id }).execute();
    await db.deleteFrom('users').where('id', '=', admin2.id).execute();
    expect((await t.app.inject({ method: 'GET', url: URL })).json().data.site_name).toBe('Casa Verde');
  });
});
