/** The environment variables the configuration is read from. */
export type Env = Record<string, string | undefined>;

/**
 * Reads typed settings out of the environment: a missing or empty variable gives the fallback; a malformed one
 * adds a line to `problems` (config.ts reports them all at once) and gives the fallback too.
 */
export class EnvReader {
  constructor(
    private readonly env: Env,
    private readonly problems: string[],
  ) {}

  string(name: string, fallback: string): string {
    const value = this.env[name];
    return value === undefined || value === '' ? fallback : value.trim();
  }

  integer(name: string, fallback: number, min: number, max: number): number {
    const raw = this.env[name];
    if (raw === undefined || raw === '') return fallback;
    const value = Number(raw);
    if (!Number.isInteger(value) || value < min || value > max) {
      this.problems.push(`${name} must be an integer from ${min} to ${max} (got "${raw}")`);
      return fallback;
    }
    return value;
  }

  boolean(name: string, fallback: boolean): boolean {
    const raw = this.env[name]?.trim().toLowerCase();
    if (raw === undefined || raw === '') return fallback;
    if (['true', '1', 'yes', 'on'].includes(raw)) return true;
    if (['false', '0', 'no', 'off'].includes(raw)) return false;
    this.problems.push(`${name} must be true or false (got "${this.env[name]}")`);
    return fallback;
  }

  /** Comma-separated values, trimmed, empties dropped. */
  list(name: string): readonly string[] {
    return Object.freeze(
      this.string(name, '')
        .split(',')
        .map((v) => v.trim())
        .filter(Boolean),
    );
  }

  url(name: string, fallback: string): string {
    const value = this.string(name, fallback);
    try {
      const parsed = new URL(value);
      if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error('scheme');
    } catch {
      this.problems.push(`${name} must be an absolute http(s) URL (got "${value}")`);
    }
    return value;
  }
}
