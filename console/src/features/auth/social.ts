/** GET /social/config (docs/api.md 2.2). */
import type { AnswerData } from '@realty-api/client';

export type SocialConfig = AnswerData<'/realty-api/v1/social/config', 'get'>;

export type Provider = 'google' | 'facebook';

const STATE_KEY = 'realty-console-social-state';

/**
 * Where the sign-in buttons send the browser: the provider's own page, which comes back to /console/login with
 * the credential in the URL fragment (OpenID Connect's implicit flow for Google's ID token, Facebook's login
 * dialog for an access token). No provider script runs in the console, so its CSP needs no outside script
 * host. The redirect address must be registered with the provider (docs/console.md). `state` ties the answer to
 * this tab's request: an answer without it is ignored.
 */
export function providerSignInUrl(provider: Provider, config: SocialConfig, origin: string): string {
  const state = randomToken();
  sessionStorage.setItem(STATE_KEY, `${provider}:${state}`);
  const redirect = `${origin}/console/login`;
  if (provider === 'google') {
    const params = new URLSearchParams({
      client_id: config.google.client_id ?? '',
      redirect_uri: redirect,
      response_type: 'id_token',
      scope: 'openid email profile',
      nonce: randomToken(),
      state,
      prompt: 'select_account',
    });
    return `https://accounts.google.com/o/oauth2/v2/auth?${params}`;
  }
  const params = new URLSearchParams({
    client_id: config.facebook.app_id ?? '',
    redirect_uri: redirect,
    response_type: 'token',
    scope: 'email',
    state,
  });
  return `https://www.facebook.com/dialog/oauth?${params}`;
}

/** The credential a provider sent back in `hash`, when its state is the one this tab sent; else null. */
export function providerAnswer(hash: string): { provider: Provider; credential: string } | null {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  const expected = sessionStorage.getItem(STATE_KEY);
  const state = params.get('state');
  if (!expected || !state) return null;
  sessionStorage.removeItem(STATE_KEY);
  const [provider, sent] = expected.split(':') as [Provider, string];
  if (sent !== state) return null;
  const credential = provider === 'google' ? params.get('id_token') : params.get('access_token');
  return credential ? { provider, credential } : null;
}

function randomToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}
