import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';
import { newSignedInUser } from '../helpers/factories.js';
import { API, handWrittenForm, image, tempUploadDir } from './media-fixtures.js';

/**
 * A part whose Content-Disposition has no `name` reaches the readers with `fieldname` undefined (busboy's type
 * says string). They named it in a field error, whose serialization then failed: a 500 in Fastify's own body
 * (FST_ERR_FAILED_ERROR_SERIALIZATION) instead of the error body. It is a malformed form: 400. Found by the
 * fuzz test (test/fuzz). POST /properties/with-media: test/properties/with-media-parts.test.ts.
 */
describeEachDialect('multipart parts without a name (%s)', (dialect) => {
  const uploads = tempUploadDir();
  let t: TestApp;
  let agent: Record<string, string>;
  let png: Buffer;
  beforeAll(async () => {
    t = await buildTestApp(dialect, { UPLOAD_DIR: uploads.dir });
    agent = (await newSignedInUser(t, { role: 'agent' })).auth;
    png = await image('png', 20, 20);
  });
  afterAll(async () => {
    await t.close();
    uploads.remove();
  });

  const expectMalformed = (res: { statusCode: number; body: string; json(): unknown; headers: Record<string, unknown> }) => {
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toEqual({
      success: false,
      code: 'validation_failed',
      message: expect.any(String),
      request_id: res.headers['x-request-id'],
    });
  };

  it.each([
    ['/media/upload', 'file'],
    ['/users/upload-avatar', 'avatar'],
  ])('POST %s: a 400 for an unnamed text part, or an unnamed file part', async (path, fileField) => {
    const file = {
      headers: [`Content-Disposition: form-data; name="${fileField}"; filename="a.png"`, 'Content-Type: image/png'],
      content: png,
    };
    const unnamedText = { headers: ['Content-Disposition: form-data'], content: 'text' };
    const unnamedFile = { headers: ['Content-Disposition: form-data; filename="b.png"', 'Content-Type: image/png'], content: png };
    for (const parts of [[file, unnamedText], [unnamedFile]]) {
      const body = handWrittenForm(parts);
      expectMalformed(
        await t.app.inject({ method: 'POST', url: `${API}${path}`, headers: { ...agent, ...body.headers }, payload: body.payload }),
      );
    }
  });
});
