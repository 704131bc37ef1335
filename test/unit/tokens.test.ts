import { afterEach, describe, expect, it, vi } from 'vitest';
import { AppError } from '../../src/lib/errors.js';
import { AccessTokens } from '../../src/modules/auth/access-tokens.service.js';

const SECRET = 'unit-test-secret-0123456789-0123456789';

describe('AccessTokens', () => {
  const tokens = new AccessTokens(SECRET, 3600);

  it('round-trips the claims and states the expiry', async () => {
    const now = new Date();
    const { token, expiresAt } = await tokens.sign({ userId: 7, sessionId: 'abc' }, now);
    expect(Math.round((expiresAt.getTime() - now.getTime()) / 1000)).toBeGreaterThanOrEqual(3599);
    expect(await tokens.verify(token)).toEqual({ userId: 7, sessionId: 'abc', expiresAt });
    const header = JSON.parse(Buffer.from(token.split('.')[0] as string, 'base64url').toString());
    expect(header).toEqual({ alg: 'HS256', typ: 'JWT' });
  });

  it('calls an expired token expired and a foreign one invalid', async () => {
    const { token } = await tokens.sign({ userId: 7, sessionId: 'abc' }, new Date(Date.now() - 2 * 3600_000));
    await expect(tokens.verify(token)).rejects.toMatchObject({ code: 'token_expired' });
    const foreign = await new AccessTokens(`${SECRET}-other`, 3600).sign({ userId: 7, sessionId: 'abc' });
    await expect(tokens.verify(foreign.token)).rejects.toMatchObject({ code: 'invalid_token' });
    await expect(tokens.verify('a.b.c')).rejects.toBeInstanceOf(AppError);
  });

  describe('remembered verifications', () => {
    afterEach(() => {
      vi.useRealTimers();
    });

    it('refuses a remembered token once it expires, and never remembers a tampered one', async () => {
      const remembering = new AccessTokens(SECRET, 60);
      const { token } = await remembering.sign({ userId: 9, sessionId: 'sid' });
      expect(await remembering.verify(token)).toMatchObject({ userId: 9 });
      expect(await remembering.verify(token)).toMatchObject({ userId: 9 }); // from memory
      const [header, payload, signature] = token.split('.') as [string, string, string];
      const flipped = `${header}.${payload}.${signature.slice(0, -2)}${signature.endsWith('AA') ? 'BB' : 'AA'}`;
      await expect(remembering.verify(flipped)).rejects.toMatchObject({ code: 'invalid_token' });
      vi.useFakeTimers({ now: Date.now() + 61_000 });
      await expect(remembering.verify(token)).rejects.toMatchObject({ code: 'token_expired' });
    });
  });
});
