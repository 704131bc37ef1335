import type { Schemas } from '@realty-api/client';
import { api, ApiError, configureClient } from './client';

/** The signed-in user as the console needs it: the login result's identity (docs/api.md 2.1). */
export type Identity = Pick<
  Schemas['LoginResult'],
  'user_id' | 'email' | 'username' | 'display_name' | 'avatar_url' | 'role' | 'agent_id' | 'agency_id'
>;

export type Role = Schemas['LoginResult']['role'];

type TokenAnswer = Pick<Schemas['TokenPair'], 'token' | 'expires_in'>;

type Listener = () => void;

/**
 * The session in this tab: the access token lives in this module's memory only; the refresh token is in an
 * HttpOnly cookie that only the token route receives (the API's cookie mode, docs/api.md 2.3), so a script
 * injected into the page could not carry the session away. A reload renews the access token from the cookie.
 */
class Session {
  private accessToken: string | null = null;
  private user: Identity | null = null;
  private renewal: Promise<boolean> | null = null;
  private renewalRetryAt: number | null = null;
  private restored: Promise<boolean> | null = null;
  private readonly listeners = new Set<Listener>();

  token(): string | null {
    return this.accessToken;
  }

  identity(): Identity | null {
    return this.user;
  }

  /** While a renewal waits out a rate limit (429): when it tries again, as a Date.now() time; else null. */
  retryingAt(): number | null {
    return this.renewalRetryAt;
  }

  /** Called when the token, the identity or a renewal's wait changes (the live notification feed reconnects). */
  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  signIn(login: string, password: string): Promise<Identity> {
    return this.start('/auth/login', { username: login, password });
  }

  /** Google's ID token or Facebook's access token, from the provider's redirect (features/auth/social.ts). */
  signInWith(provider: 'google' | 'facebook', credential: string): Promise<Identity> {
    const body: Record<string, string> = provider === 'google' ? { id_token: credential } : { access_token: credential };
    return this.start(`/social/${provider}/login`, body);
  }

  /** A new account of a self-service role (docs/api.md 2.2), signed in. */
  signUp(fields: Record<string, string>): Promise<Identity> {
    return this.start('/auth/register', fields);
  }

  /** The first administrator, with the token of the set-up link that the server printed at its first run. */
  setUp(fields: Record<string, string>): Promise<Identity> {
    return this.start('/setup/administrator', fields);
  }

  private async start(route: string, body: Record<string, string>): Promise<Identity> {
    const result = await api<Schemas['LoginResult']>(route, { method: 'POST', body: { ...body, session: 'cookie' } });
    this.accessToken = result.token;
    this.user = pickIdentity(result);
    this.restored = Promise.resolve(true);
    this.changed();
    return this.user;
  }

  /** Signs out on the server (the session's tokens stop working, the cookie is cleared), then forgets it here. */
  async signOut(): Promise<void> {
    try {
      if (this.accessToken) await api('/auth/logout', { method: 'POST', body: { session: 'cookie' } });
    } catch {
      // Already signed out on the server (expired or revoked): nothing more to undo there.
    } finally {
      this.forget();
    }
  }

  /** Once per page load: a session kept in the cookie becomes a fresh access token and identity. */
  restore(): Promise<boolean> {
    this.restored ??= this.renew().then(async (ok) => {
      if (!ok) return false;
      await this.reloadIdentity();
      return this.user !== null;
    });
    return this.restored;
  }

  async reloadIdentity(): Promise<void> {
    try {
      this.user = pickIdentity(await api<Schemas['UserProfile']>('/users/me'));
      this.changed();
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) this.forget();
      else throw error;
    }
  }

  /**
   * A new access token from the refresh cookie; one request at a time however many callers ask. A 429 (too many
   * renewals) keeps the session: the wait is announced (retryingAt) and the renewal tried again after Retry-After.
   */
  renew(): Promise<boolean> {
    this.renewal ??= this.renewOnce().finally(() => {
      this.renewal = null;
    });
    return this.renewal;
  }

  private async renewOnce(): Promise<boolean> {
    for (;;) {
      try {
        const answer = await api<TokenAnswer>('/auth/token', { method: 'POST', body: { grant_type: 'refresh_token', session: 'cookie' } });
        this.accessToken = answer.token;
        this.renewalRetryAt = null;
        this.changed();
        return true;
      } catch (error) {
        if (!(error instanceof ApiError && error.status === 429)) {
          this.renewalRetryAt = null;
          this.forget();
          return false;
        }
        const seconds = error.retryAfterSeconds ?? 1;
        this.renewalRetryAt = Date.now() + seconds * 1000;
        this.changed();
        await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
      }
    }
  }

  private forget(): void {
    const had = this.accessToken !== null || this.user !== null;
    this.accessToken = null;
    this.user = null;
    this.restored = Promise.resolve(false);
    if (had) this.changed();
  }

  private changed(): void {
    for (const listener of this.listeners) listener();
  }
}

function pickIdentity(source: Identity): Identity {
  const { user_id, email, username, display_name, avatar_url, role, agent_id, agency_id } = source;
  return { user_id, email, username, display_name, avatar_url, role, agent_id, agency_id };
}

export const session = new Session();

configureClient({ token: () => session.token(), renew: () => session.renew() });
