import { createPrivateKey } from 'node:crypto';
import { readFileSync } from 'node:fs';

/** Firebase Cloud Messaging HTTP v1 through a service account (docs/api.md 8). */
export interface FcmConfig {
  readonly projectId: string;
  /** The service account: `iss` of the OAuth assertion. */
  readonly clientEmail: string;
  /** PEM of the service account's RSA key; signs the assertion and is never sent or logged. */
  readonly privateKey: string;
  /** Google's OAuth 2.0 token endpoint (FCM_TOKEN_URL); also the `aud` of the assertion. */
  readonly tokenUrl: string;
  /** Scheme, host and port of the FCM API, without /v1 (FCM_API_URL). */
  readonly apiUrl: string;
}

/**
 * FCM_PROJECT_ID, FCM_CLIENT_EMAIL and FCM_PRIVATE_KEY, or FCM_SERVICE_ACCOUNT_FILE (the JSON key file Google
 * hands out), read now so that a missing file fails the start rather than the first push. A variable set
 * beside the file wins over the file's field. Messages never quote the key.
 */
export function readFcmConfig(
  env: Record<string, string | undefined>,
  problems: string[],
  { tokenUrl, apiUrl }: Pick<FcmConfig, 'tokenUrl' | 'apiUrl'>,
): FcmConfig | undefined {
  const file = env.FCM_SERVICE_ACCOUNT_FILE?.trim() || undefined;
  const account = file === undefined ? {} : readServiceAccountFile(file, problems);
  if (account === undefined) return undefined;
  const projectId = env.FCM_PROJECT_ID?.trim() || account.project_id;
  const clientEmail = env.FCM_CLIENT_EMAIL?.trim() || account.client_email;
  // Keys pasted into one-line variables (.env files, CI secrets) carry `\n` escapes instead of line breaks.
  const privateKey = env.FCM_PRIVATE_KEY?.replace(/\\n/g, '\n').trim() || account.private_key;
  const missing = [
    ['FCM_PROJECT_ID', projectId],
    ['FCM_CLIENT_EMAIL', clientEmail],
    ['FCM_PRIVATE_KEY', privateKey],
  ].flatMap(([name, value]) => (value ? [] : [name]));
  if (missing.length === 3 && file === undefined) return undefined;
  if (missing.length > 0) {
    const source = file === undefined ? '' : ' (or in FCM_SERVICE_ACCOUNT_FILE)';
    problems.push(`push needs FCM_PROJECT_ID, FCM_CLIENT_EMAIL and FCM_PRIVATE_KEY together; missing: ${missing.join(', ')}${source}`);
    return undefined;
  }
  try {
    if (createPrivateKey(privateKey!).asymmetricKeyType !== 'rsa') throw new Error('not RSA');
  } catch {
    problems.push('FCM_PRIVATE_KEY must be the PEM RSA private key of the service account ("-----BEGIN PRIVATE KEY-----…")');
    return undefined;
  }
  return { projectId: projectId!, clientEmail: clientEmail!, privateKey: privateKey!, tokenUrl, apiUrl };
}

interface ServiceAccountFile {
  project_id?: string;
  client_email?: string;
  private_key?: string;
}

/** Undefined (and a problem) when the file cannot be read as a JSON object. */
function readServiceAccountFile(file: string, problems: string[]): ServiceAccountFile | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? 'not JSON';
    problems.push(`FCM_SERVICE_ACCOUNT_FILE must be a readable service-account JSON file (${file}: ${reason})`);
    return undefined;
  }
  if (parsed === null || typeof parsed !== 'object') {
    problems.push(`FCM_SERVICE_ACCOUNT_FILE must hold a JSON object (${file})`);
    return undefined;
  }
  const text = (value: unknown) => (typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined);
  const fields = parsed as Record<string, unknown>;
  return { project_id: text(fields.project_id), client_email: text(fields.client_email), private_key: text(fields.private_key) };
}
