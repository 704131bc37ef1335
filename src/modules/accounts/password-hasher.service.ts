import { type Algorithm, hash, verify } from '@node-rs/argon2';

/**
 * argon2id with the OWASP baseline of docs/api.md 2 (19 MiB, t=2). Hashing runs on libuv's thread pool, so it
 * never blocks the event loop.
 */
const OPTIONS = {
  algorithm: 2 as Algorithm, // Argon2id (the package's const enum is not available at run time)
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
};

export class PasswordHasher {
  private dummy: Promise<string> | undefined;

  hash(password: string): Promise<string> {
    return hash(password, OPTIONS);
  }

  async verify(storedHash: string, password: string): Promise<boolean> {
    try {
      return await verify(storedHash, password);
    } catch {
      return false; // a malformed stored hash is a failed login, not a 500
    }
  }

  /**
   * The same work as a real verification, for logins of unknown users, so that timing does not tell
   * whether an account exists.
   */
  async verifyAgainstNothing(password: string): Promise<false> {
    this.dummy ??= hash('not-a-real-password', OPTIONS);
    await this.verify(await this.dummy, password);
    return false;
  }
}
