import { describe, expect, it } from 'vitest';
import { AppError } from '../../src/http/errors.js';
import { AccessTokens } from '../../src/modules/auth/tokens.js';

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
});
