import { createHmac, hkdfSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { UnsubscribeTokens } from '../../src/modules/notifications/unsubscribe/unsubscribe-tokens.service.js';

const SECRET = 'unit-test-secret-0123456789-0123456789';

describe('UnsubscribeTokens', () => {
  const tokens = new UnsubscribeTokens(SECRET);

  it('round-trips the user and the type, with no expiry', () => {
    const token = tokens.sign(42, 'saved_search_match');
    expect(token).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(token.split('.')[0]!, 'base64url').toString()).toBe('42.saved_search_match');
    expect(tokens.verify(token)).toEqual({ userId: 42, type: 'saved_search_match' });
    // Deterministic: the same user and type give the same link in every e-mail.
    expect(tokens.sign(42, 'saved_search_match')).toBe(token);
    expect(new UnsubscribeTokens(SECRET).verify(token)).toEqual({ userId: 42, type: 'saved_search_match' });
  });

  it('binds the token to one user and one type', () => {
    expect(tokens.sign(1, 'system')).not.toBe(tokens.sign(2, 'system'));
    expect(tokens.sign(1, 'system')).not.toBe(tokens.sign(1, 'new_review'));
  });

  it('refuses a token whose payload was changed, or signed with another secret', () => {
    const token = tokens.sign(7, 'system');
    const signature = token.split('.')[1]!;
    for (const payload of ['8.system', '7.new_review', '7.system ', '07.system']) {
      expect(tokens.verify(`${Buffer.from(payload).toString('base64url')}.${signature}`)).toBeUndefined();
    }
    const foreign = new UnsubscribeTokens(`${SECRET}-other`).sign(7, 'system');
    expect(tokens.verify(foreign)).toBeUndefined();
  });

  it('refuses a token whose signature was changed in any character', () => {
    const token = tokens.sign(7, 'system');
    const [payload, signature] = token.split('.') as [string, string];
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    for (let i = 0; i < signature.length; i++) {
      const other = alphabet[(alphabet.indexOf(signature[i]!) + 1) % alphabet.length]!;
      expect(tokens.verify(`${payload}.${signature.slice(0, i)}${other}${signature.slice(i + 1)}`)).toBeUndefined();
    }
    expect(tokens.verify(`${payload}.${signature.slice(0, -1)}`)).toBeUndefined();
    expect(tokens.verify(`${payload}.${signature}A`)).toBeUndefined();
  });

  it('refuses malformed tokens without throwing', () => {
    const token = tokens.sign(7, 'system');
    for (const bad of ['', '.', 'abc', `${token}.x`, token.replace('.', ''), `${token}=`, `a b.${token.split('.')[1]}`, 'x'.repeat(5000)]) {
      expect(tokens.verify(bad)).toBeUndefined();
    }
  });

  it('is an HMAC-SHA256 under a key derived from the secret, and refuses signed payloads of no user and type', () => {
    const key = Buffer.from(hkdfSync('sha256', SECRET, '', 'notification-unsubscribe', 32));
    const signed = (payload: string) => {
      const encoded = Buffer.from(payload).toString('base64url');
      return `${encoded}.${createHmac('sha256', key).update(encoded).digest('base64url')}`;
    };
    expect(signed('7.system')).toBe(tokens.sign(7, 'system'));
    for (const payload of ['7.not_a_type', '0.system', '-1.system', '7', 'system', '7.system.x', '99999999999999999.system']) {
      expect(tokens.verify(signed(payload))).toBeUndefined();
    }
    // A key made from the secret by any other route (the secret itself) signs nothing valid.
    const encoded = Buffer.from('7.system').toString('base64url');
    expect(tokens.verify(`${encoded}.${createHmac('sha256', SECRET).update(encoded).digest('base64url')}`)).toBeUndefined();
    expect(() => tokens.sign(0, 'system')).toThrow(RangeError);
    expect(() => tokens.sign(1.5, 'system')).toThrow(RangeError);
  });
});
