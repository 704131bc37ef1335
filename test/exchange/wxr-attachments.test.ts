import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { readWxrSite } from '../../src/adapters/feeds/wxr/wxr-reader.js';
import type { UserRow } from '../../src/db/schema/index.js';
import { item, spoolFile, streamOf, wxr } from '../adapters/feeds/wxr/wxr-test-helpers.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';
import { newUser } from '../helpers/factories.js';
import { image, PDF } from '../media/media-fixtures.js';

/** A WordPress site's uploads: PDFs at `…pdf`, an HTML page posing as one at `fake.pdf`, JPEGs elsewhere. */
async function siteServer(): Promise<{ base: string; close(): Promise<void> }> {
  const jpeg = await image('jpeg', 48, 32);
  const server = http.createServer((request, response) => {
    const url = request.url ?? '';
    if (url.endsWith('fake.pdf')) response.end('<html><body>not a PDF</body></html>');
    else response.end(url.endsWith('.pdf') ? PDF : jpeg);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { base: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

describeEachDialect('a Houzez listing’s brochures carried as its documents (%s)', (dialect) => {
  const uploads = fs.mkdtempSync(path.join(os.tmpdir(), 'realty-wxr-documents-'));
  let t: TestApp;
  let admin: UserRow;
  let server: Awaited<ReturnType<typeof siteServer>>;

  beforeAll(async () => {
    server = await siteServer();
    t = await buildTestApp(dialect, { UPLOAD_DIR: uploads, IMPORT_ALLOWED_HOSTS: '127.0.0.1' });
    admin = await newUser(t.database.db, { role: 'administrator' });
  });
  afterAll(async () => {
    await t.close();
    await server.close();
    fs.rmSync(uploads, { recursive: true, force: true });
  });

  const attachment = (id: string, url: string, mime = '') =>
    item(id, 'attachment', {
      status: 'inherit',
      extra: `${mime ? `<wp:post_mime_type>${mime}</wp:post_mime_type>` : ''}<wp:attachment_url>${url}</wp:attachment_url>`,
    });
  /** A site of one property: a photo, and the attachments given (post ids 50 on). */
  const site = (attachments: string[]) =>
    wxr(
      [
        `<wp:base_site_url>${server.base}</wp:base_site_url>`,
        item('10', 'property', {
          title: 'Villa with a brochure',
          meta: { fave_property_images: '40', fave_attachments: attachments },
        }),
        attachment('40', `${server.base}/wp-content/uploads/photo.jpg`, 'image/jpeg'),
        attachment('50', `${server.base}/wp-content/uploads/Brochure%20Villa.pdf`, 'application/pdf'),
        attachment('51', `${server.base}/wp-content/uploads/price-list.pdf`),
        attachment(
          '52',
          `${server.base}/wp-content/uploads/terms.docx`,
          'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
        ),
        attachment('53', 'https://cdn.elsewhere.example/elsewhere.pdf', 'application/pdf'),
        attachment('54', `${server.base}/wp-content/uploads/fake.pdf`, 'application/pdf'),
      ].join('\n'),
    );
  const importSite = (text: string, source: string, strict = false) =>
    t.services.wordpressSiteImporter.run(readWxrSite(streamOf(text, 4096), spoolFile()), { source, actorId: admin.id, strict });
  const fetchAll = async () => {
    while ((await t.services.feedPictures.runOnce()) === 0);
  };
  const listingOf = async (source: string) => {
    const row = await t.database.db
      .selectFrom('listing_sources')
      .select('listing_id')
      .where('source', '=', source)
      .where('source_key', '=', '10')
      .executeTakeFirstOrThrow();
    const res = await t.app.inject({ method: 'GET', url: `/realty-api/v1/properties/${row.listing_id}` });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data;
  };

  it('imports the PDF attachments as the listing’s documents, in order; another kind is a warning, and counted', async () => {
    const summary = await importSite(site(['50', '52', '51', '53']), 'brochures');
    expect(summary).toMatchObject({ created: 1, rejected: 0, warnings: 1 });
    expect(summary.reportedWarnings).toEqual([
      { at: 'line 5', key: '10', field: 'attachments', reason: 'must be a PDF document (attachment 52 is not one, left out)' },
    ]);
    // 50 and 51 carried; 52 is no PDF, 53 is on another host than the site's.
    expect(summary.report.attachments).toEqual({ carried: 2, notCarried: 2 });
    await fetchAll();
    const listing = await listingOf('brochures');
    expect(listing.gallery).toHaveLength(1);
    expect(listing.attachments).toEqual([
      { id: expect.any(Number), url: expect.stringMatching(/\.pdf$/), title: 'Brochure Villa.pdf', mime_type: 'application/pdf' },
      { id: expect.any(Number), url: expect.stringMatching(/\.pdf$/), title: 'price-list.pdf', mime_type: 'application/pdf' },
    ]);
    const media = await t.database.db
      .selectFrom('media')
      .select(['owner_id', 'mime_type'])
      .where('id', '=', listing.attachments[0].id)
      .executeTakeFirstOrThrow();
    expect(media).toEqual({ owner_id: admin.id, mime_type: 'application/pdf' });
  });

  it('re-imported with other documents, replaces them; unchanged, fetches nothing', async () => {
    await importSite(site(['50', '51']), 'replaced');
    await fetchAll();
    expect((await listingOf('replaced')).attachments.map((document: { title: string }) => document.title)).toEqual([
      'Brochure Villa.pdf',
      'price-list.pdf',
    ]);
    expect(await importSite(site(['50', '51']), 'replaced')).toMatchObject({ unchanged: 1, updated: 0 });
    expect(await importSite(site(['51']), 'replaced')).toMatchObject({ updated: 1 });
    await fetchAll();
    expect((await listingOf('replaced')).attachments.map((document: { title: string }) => document.title)).toEqual(['price-list.pdf']);
    expect(await importSite(site([]), 'replaced')).toMatchObject({ updated: 1 });
    expect((await listingOf('replaced')).attachments).toEqual([]);
  });

  it('does not attach a file that is no PDF whatever the export says, and keeps why', async () => {
    await importSite(site(['54']), 'fake');
    await fetchAll();
    expect((await listingOf('fake')).attachments).toEqual([]);
    const failed = await t.database.db
      .selectFrom('feed_pictures')
      .select(['state', 'last_error'])
      .where('kind', '=', 'document')
      .where('url', 'like', '%fake.pdf')
      .execute();
    expect(failed.length).toBeGreaterThan(0);
    expect(failed[0]!.last_error).not.toBe('');
  });

  it('rejects a listing with an attachment that is no PDF in a strict run', async () => {
    const summary = await importSite(site(['50', '52']), 'strict-brochures', true);
    expect(summary).toMatchObject({ created: 0, rejected: 1 });
    expect(summary.rejections[0]!.errors).toEqual([
      { field: 'attachments', reason: 'must be a PDF document (attachment 52 is not one, left out)' },
    ]);
  });
});
