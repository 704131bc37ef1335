import {
  type IdentityVerifier,
  invalidProviderToken,
  PROVIDER_TIMEOUT_MS,
  providerUnavailable,
  type SocialIdentity,
  textClaim,
} from './identity.js';

type Json = Record<string, unknown>;

/** A Graph API answer that says nothing about the token: the provider is down, throttling or misbehaving. */
class GraphUnavailable extends Error {}

/**
 * Verifies Facebook user access tokens with the Graph API: `debug_token` (with this app's credentials) proves
 * the token is valid and was issued to this app, then `me` reads the profile of the user it belongs to.
 */
export class FacebookTokenVerifier implements IdentityVerifier {
  readonly provider = 'facebook' as const;
  readonly publicId: string;

  constructor(private readonly settings: { appId: string; appSecret: string; graphUrl: string }) {
    this.publicId = settings.appId;
  }

  async verify(accessToken: string): Promise<SocialIdentity> {
    try {
      return await this.inspect(accessToken);
    } catch (error) {
      if (error instanceof GraphUnavailable) throw providerUnavailable(this.provider, error.cause ?? error);
      throw error;
    }
  }

  private async inspect(accessToken: string): Promise<SocialIdentity> {
    const { appId, appSecret } = this.settings;
    const debug = await this.graph('/debug_token', { input_token: accessToken, access_token: `${appId}|${appSecret}` });
    const data = debug?.data as Json | undefined;
    // A valid token issued to another app must be refused: otherwise any app could sign its users in here.
    if (!data || data.is_valid !== true || idOf(data.app_id) !== appId) throw invalidProviderToken(this.provider);
    const userId = idOf(data.user_id);
    if (userId === '') throw invalidProviderToken(this.provider);

    const me = await this.graph('/me', { fields: 'id,email,first_name,last_name,name', access_token: accessToken });
    if (!me || idOf(me.id) !== userId) throw invalidProviderToken(this.provider);
    const email = textClaim(me.email);
    return {
      provider: this.provider,
      subject: userId,
      email: email === '' ? undefined : email,
      // The Graph API returns only the account's confirmed primary address (never an unconfirmed one), so an
      // address it returns has been proven by the user.
      emailVerified: email !== '',
      firstName: textClaim(me.first_name),
      lastName: textClaim(me.last_name),
      fullName: textClaim(me.name),
    };
  }

  /**
   * GET on the Graph API. Returns the JSON body of a 2xx answer and undefined for a 4xx one (the token is not
   * accepted); throws GraphUnavailable when the API cannot answer about the token.
   */
  private async graph(path: string, query: Record<string, string>): Promise<Json | undefined> {
    const url = `${this.settings.graphUrl}${path}?${new URLSearchParams(query).toString()}`;
    let response: Response;
    let body: unknown;
    try {
      response = await fetch(url, {
        headers: { accept: 'application/json' },
        redirect: 'error',
        signal: AbortSignal.timeout(PROVIDER_TIMEOUT_MS),
      });
      body = await response.json().catch(() => undefined);
    } catch (error) {
      throw new GraphUnavailable('Graph API unreachable', { cause: error });
    }
    const transient = isObject(body) && isObject(body.error) && body.error.is_transient === true;
    if (response.status >= 500 || response.status === 429 || transient) {
      throw new GraphUnavailable(`Graph API answered ${response.status} to ${path}`);
    }
    if (!response.ok) return undefined;
    if (!isObject(body)) throw new GraphUnavailable(`Graph API answered ${path} without a JSON object`);
    return body;
  }
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Graph ids are strings of digits; accept numbers too rather than compare a number with a string. */
function idOf(value: unknown): string {
  return typeof value === 'string' || (typeof value === 'number' && Number.isSafeInteger(value)) ? String(value) : '';
}
