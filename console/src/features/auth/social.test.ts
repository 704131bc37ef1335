import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { providerAnswer, providerSignInUrl, type SocialConfig } from './social';

const config: SocialConfig = {
  google: { enabled: true, client_id: 'web.apps.example' },
  facebook: { enabled: true, app_id: '1234' },
  available_providers: ['google', 'facebook'],
};

/** sessionStorage as the browser has it, for the node test run. */
function memoryStorage(): Storage {
  const items = new Map<string, string>();
  return {
    get length() {
      return items.size;
    },
    clear: () => items.clear(),
    getItem: (key) => items.get(key) ?? null,
    key: (index) => [...items.keys()][index] ?? null,
    removeItem: (key) => void items.delete(key),
    setItem: (key, value) => void items.set(key, value),
  };
}

describe('social sign-in redirects', () => {
  beforeEach(() => {
    globalThis.sessionStorage = memoryStorage();
  });
  afterEach(() => {
    Reflect.deleteProperty(globalThis, 'sessionStorage');
  });

  it('sends Google an OpenID Connect implicit request that comes back to the console', () => {
    const url = new URL(providerSignInUrl('google', config, 'https://portal.example'));
    expect(url.origin + url.pathname).toBe('https://accounts.google.com/o/oauth2/v2/auth');
    expect(url.searchParams.get('client_id')).toBe('web.apps.example');
    expect(url.searchParams.get('redirect_uri')).toBe('https://portal.example/console/login');
    expect(url.searchParams.get('response_type')).toBe('id_token');
    expect(url.searchParams.get('state')).toMatch(/^[0-9a-f]{32}$/);
    expect(url.searchParams.get('nonce')).toMatch(/^[0-9a-f]{32}$/);
  });

  it('takes back the credential of the request this tab made, once', () => {
    const state = new URL(providerSignInUrl('google', config, 'https://portal.example')).searchParams.get('state');
    expect(providerAnswer(`#id_token=abc.def.ghi&state=${state}`)).toEqual({ provider: 'google', credential: 'abc.def.ghi' });
    expect(providerAnswer(`#id_token=abc.def.ghi&state=${state}`)).toBeNull();

    const facebook = new URL(providerSignInUrl('facebook', config, 'https://portal.example'));
    expect(facebook.searchParams.get('response_type')).toBe('token');
    const answer = `#access_token=EAAB&state=${facebook.searchParams.get('state')}`;
    expect(providerAnswer(answer)).toEqual({ provider: 'facebook', credential: 'EAAB' });
  });

  it('ignores an answer this tab did not ask for, or one without a credential', () => {
    expect(providerAnswer('#id_token=planted&state=whatever')).toBeNull();
    const state = new URL(providerSignInUrl('google', config, 'https://portal.example')).searchParams.get('state');
    expect(providerAnswer(`#id_token=planted&state=${state}x`)).toBeNull();
    const next = new URL(providerSignInUrl('google', config, 'https://portal.example')).searchParams.get('state');
    expect(providerAnswer(`#access_token=wrong-kind&state=${next}`)).toBeNull();
    expect(providerAnswer('')).toBeNull();
  });
});
