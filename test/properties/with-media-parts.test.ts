import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';
import { newSignedInUser } from '../helpers/factories.js';
import { API, handWrittenForm, image, tempUploadDir } from '../media/media-fixtures.js';

const WITH_MEDIA = `${API}/properties/with-media`;

/**
 * Parts of POST /properties/with-media that the fuzz test (test/fuzz) found mishandled:
 * - a part without a name reached the reader with `fieldname` undefined, which it named in a field error whose
 *   serialization failed: a 500 in Fastify's own body. It is a malformed form: 400.
 * - the `data` part "may be a text field or a part of type application/json" (docs/api.md 12), but a text field
 *   of type application/json (no filename) arrives already parsed by @fastify/multipart, and was read as the
 *   text "[object Object]": a 400 for a valid listing.
 */
describeEachDialect('POST /properties/with-media parts (%s)', (dialect) => {
  const uploads = tempUploadDir();
  let t: TestApp;
  let seller: Record<string, string>;
  let png: Buffer;
  beforeAll(async () => {
    t = await buildTestApp(dialect, { UPLOAD_DIR: uploads.dir });
    seller = (await newSignedInUser(t, { role: 'seller' })).auth;
    png = await image('png', 20, 20);
  });
  afterAll(async () => {
    await t.close();
    uploads.remove();
  });

  const send = (parts: { headers: string[]; content: string | Buffer }[]) => {
    const body = handWrittenForm(parts);
    return t.app.inject({ method: 'POST', url: WITH_MEDIA, headers: { ...seller, ...body.headers }, payload: body.payload });
  };
  const data = (type?: string) => ({
    headers: ['Content-Disposition: form-data; name="data"', ...(type ? [`Content-Type: ${type}`] : [])],
    content: JSON.stringify({ title: 'Garden flat', bedrooms: 2 }),
  });

  it('refuses a part without a name as a malformed form, text or file', async () => {
    for (const unnamed of [
      { headers: ['Content-Disposition: form-data'], content: 'text' },
      { headers: ['Content-Disposition: form-data; filename="b.png"', 'Content-Type: image/png'], content: png },
    ]) {
      const res = await send([data(), unnamed]);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toEqual({
        success: false,
        code: 'validation_failed',
        message: expect.any(String),
        request_id: res.headers['x-request-id'],
      });
    }
  });

  it.each([undefined, 'application/json', 'application/json; charset=utf-8'])('takes `data` as a text part of type %s', async (type) => {
    const res = await send([
      data(type),
      { headers: ['Content-Disposition: form-data; name="images"; filename="a.png"', 'Content-Type: image/png'], content: png },
    ]);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data).toMatchObject({ title: 'Garden flat', bedrooms: 2 });
    expect(res.json().data.gallery).toHaveLength(1);
  });

  it('still refuses a text part of type application/json that is not a JSON object', async () => {
    for (const content of ['[1,2]', '"text"', 'null', '{"title":']) {
      const res = await send([{ headers: ['Content-Disposition: form-data; name="data"', 'Content-Type: application/json'], content }]);
      expect(res.statusCode, `${content}: ${res.body}`).toBe(400);
      expect(res.json()).toMatchObject({ success: false, code: 'validation_failed' });
    }
  });
});
