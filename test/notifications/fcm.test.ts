import { generateKeyPairSync } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { inspect } from 'node:util';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { FcmClient, type PushMessage } from '../../src/adapters/push/fcm.js';
import { FAKE_FCM_CLIENT_EMAIL, FCM_SCOPE, type FakeFcm, startFakeFcm } from '../helpers/fake-fcm.js';

const message: PushMessage = { title: 'Listing approved', body: 'Your listing is live', data: { property_id: '42' } };

describe('FcmClient', () => {
  let fcm: FakeFcm;

  beforeAll(async () => {
    fcm = await startFakeFcm();
  });
  afterAll(() => fcm.close());
  beforeEach(() => fcm.reset());

  const client = (options: { timeoutMs?: number } = {}) => new FcmClient(fcm.config(), options);

  /** The message of `error`, and of its causes, must not quote a secret. */
  function expectNoSecrets(error: unknown, deviceToken: string): void {
    let text = '';
    for (let e: unknown = error; e instanceof Error; e = e.cause) text += `${e.message}\n${String(e.stack)}\n`;
    for (const secret of [deviceToken, ...fcm.issuedTokens, fcm.serviceAccount.private_key, 'PRIVATE KEY', 'eyJ']) {
      expect(text).not.toContain(secret);
    }
  }

  it('exchanges a signed assertion for a token and sends the message with its idempotency key', async () => {
    expect(await client().send('device-1', message, 'push:1')).toBe('sent');
    expect(fcm.assertions).toHaveLength(1);
    const [{ header, claims }] = fcm.assertions as [(typeof fcm.assertions)[number]];
    expect(header).toMatchObject({ alg: 'RS256', typ: 'JWT' });
    expect(claims).toMatchObject({ iss: FAKE_FCM_CLIENT_EMAIL, scope: FCM_SCOPE, aud: fcm.tokenUrl });
    expect(claims.exp - claims.iat).toBe(3600);
    expect(Math.abs(claims.iat - Date.now() / 1000)).toBeLessThan(5);
    expect(fcm.messages).toEqual([
      {
        token: 'device-1',
        notification: { title: 'Listing approved', body: 'Your listing is live' },
        data: { property_id: '42', idempotency_key: 'push:1' },
        accessToken: fcm.issuedTokens[0],
      },
    ]);
  });

  it('keeps the token until a minute before it expires', async () => {
    const push = client();
    await push.send('device-1', message, 'k1');
    await push.send('device-2', message, 'k2');
    expect(fcm.tokenRequests()).toBe(1);

    fcm.reset();
    fcm.setTokenTtl(62); // usable for 2 s
    // The client's clock only (the token's age comes from Date.now()): two seconds pass at once.
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const shortLived = client();
      await shortLived.send('device-1', message, 'k1');
      await shortLived.send('device-1', message, 'k2');
      expect(fcm.tokenRequests()).toBe(1);
      vi.setSystemTime(Date.now() + 2_100);
      await shortLived.send('device-1', message, 'k3');
    } finally {
      vi.useRealTimers();
    }
    expect(fcm.tokenRequests()).toBe(2);
    expect(fcm.messages.map((m) => m.accessToken)).toEqual([fcm.issuedTokens[0], fcm.issuedTokens[0], fcm.issuedTokens[1]]);
  });

  it('shares one token request between concurrent sends', async () => {
    fcm.setTokenDelay(100);
    const push = client();
    const results = await Promise.all(Array.from({ length: 8 }, (_, n) => push.send(`device-${n}`, message, `k${n}`)));
    expect(results).toEqual(Array(8).fill('sent'));
    expect(fcm.tokenRequests()).toBe(1);
    expect(new Set(fcm.messages.map((m) => m.accessToken))).toEqual(new Set([fcm.issuedTokens[0]]));
  });

  it('drops a refused token, gets a new one and sends once more', async () => {
    const push = client();
    await push.send('device-1', message, 'k1');
    fcm.expireTokens();
    expect(await Promise.all([push.send('device-1', message, 'k2'), push.send('device-2', message, 'k3')])).toEqual(['sent', 'sent']);
    expect(fcm.tokenRequests()).toBe(2);
    expect(fcm.messages.slice(1).map((m) => m.accessToken)).toEqual([fcm.issuedTokens[1], fcm.issuedTokens[1]]);
  });

  it('gives up after one refresh when FCM keeps answering 401', async () => {
    const push = client();
    await push.send('device-1', message, 'k1');
    fcm.failNext(5, 401);
    const error = await push.send('device-1', message, 'k2').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toMatch(/HTTP 401 UNAUTHENTICATED/);
    expect(fcm.sendRequests()).toBe(3);
    expect(fcm.tokenRequests()).toBe(2);
    expectNoSecrets(error, 'device-1');
  });

  it('reports tokens FCM no longer knows as unregistered', async () => {
    fcm.unregister('gone');
    fcm.rejectAsInvalid('garbage');
    const push = client();
    expect(await push.send('gone', message, 'k1')).toBe('unregistered');
    expect(await push.send('garbage', message, 'k2')).toBe('unregistered');
    expect(await push.send('alive', message, 'k3')).toBe('sent');
    expect(fcm.messages.map((m) => m.token)).toEqual(['alive']);
  });

  it('throws on a 400 that is not about the token', async () => {
    fcm.failNext(1, 400);
    const error = await client()
      .send('device-1', message, 'k1')
      .catch((e: unknown) => e);
    expect((error as Error).message).toMatch(/^FCM send failed: HTTP 400 INVALID_ARGUMENT/);
  });

  it.each([
    [503, /HTTP 503 UNAVAILABLE/],
    [429, /HTTP 429 RESOURCE_EXHAUSTED/],
    [500, /HTTP 500 INTERNAL/],
    ['network', /^FCM send failed: /],
  ] as const)('throws on %s, and sends once FCM is back', async (failure, expected) => {
    const push = client();
    fcm.failNext(1, failure);
    const error = await push.send('device-1', message, 'k1').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toMatch(expected);
    expectNoSecrets(error, 'device-1');
    expect(await push.send('device-1', message, 'k1')).toBe('sent');
    expect(fcm.messages).toHaveLength(1);
  });

  it('gives up on a send that takes longer than the timeout', async () => {
    fcm.failNext(1, 'hang');
    const error = await client({ timeoutMs: 200 })
      .send('device-1', message, 'k1')
      .catch((e: unknown) => e);
    expect((error as Error).message).toBe('FCM send timed out after 200 ms');
  });

  it('throws, without the assertion or the key, when Google refuses the service account', async () => {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const otherKey = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const push = new FcmClient({ ...fcm.config(), privateKey: otherKey });
    const error = await push.send('device-1', message, 'k1').catch((e: unknown) => e);
    expect((error as Error).message).toBe('FCM token request failed: HTTP 400 invalid_grant: Invalid JWT Signature.');
    expectNoSecrets(error, 'device-1');
    expect(String(error)).not.toContain(otherKey.slice(40, 80));
    expect(fcm.sendRequests()).toBe(0);
  });

  it('throws when the token endpoint cannot be reached', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    const push = new FcmClient({ ...fcm.config(), tokenUrl: `http://127.0.0.1:${port}/token` });
    const error = await push.send('device-1', message, 'k1').catch((e: unknown) => e);
    expect((error as Error).message).toBe('FCM token request failed: ECONNREFUSED');
  });

  it('shows neither the key nor the access token when inspected or serialized', async () => {
    const push = client();
    await push.send('device-1', message, 'k1');
    for (const shown of [inspect(push, { depth: 5, showHidden: true }), JSON.stringify(push)]) {
      expect(shown).not.toContain(fcm.issuedTokens[0]);
      expect(shown).not.toContain('PRIVATE KEY');
    }
  });

  it('drops data keys that FCM reserves for itself', async () => {
    await client().send('device-1', { ...message, data: { from: 'x', google_x: 'y', gcm_z: 'z', kept: 'yes' } }, 'k1');
    expect(fcm.messages[0]!.data).toEqual({ kept: 'yes', idempotency_key: 'k1' });
  });
});
