import { afterEach, describe, expect, it, vi } from 'vitest';
import { api, ApiError, configureClient } from './client';

describe('the console’s own error messages', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    configureClient({ language: () => 'en' });
  });

  it('are in the console’s language when no answer of the API carries one', async () => {
    configureClient({ language: () => 'fr' });
    vi.stubGlobal('fetch', () => Promise.reject(new TypeError('Failed to fetch')));
    const offline = await api('/properties').catch((error: unknown) => error);
    expect(offline).toBeInstanceOf(ApiError);
    expect(offline).toMatchObject({ status: 0, code: 'network_error', message: 'Le serveur est injoignable.' });

    configureClient({ language: () => 'es' });
    vi.stubGlobal('fetch', () => Promise.resolve(new Response('<html>', { status: 502 })));
    await expect(api('/properties')).rejects.toMatchObject({
      code: 'invalid_response',
      message: 'El servidor respondió 502 sin un cuerpo legible.',
    });
  });
});
