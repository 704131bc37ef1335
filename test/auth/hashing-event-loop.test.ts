import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PasswordHasher } from '../../src/modules/accounts/password-hasher.service.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { DEFAULT_PASSWORD, newUser, unique } from '../helpers/factories.js';

// argon2id runs on libuv's thread pool: a burst of logins must not stall other requests.
describe('password hashing and the event loop', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await buildTestApp('sqlite');
  });
  afterAll(() => t.close());

  it('answers /health again and again while a burst of logins is being hashed', async () => {
    // Hashed at the application's own cost (factory users get the cheapest one).
    const user = await newUser(t.database.db, { password_hash: await new PasswordHasher().hash(DEFAULT_PASSWORD) });
    let finished = 0;
    const burst = Array.from({ length: 16 }, (_, i) =>
      t.app
        .inject({
          method: 'POST',
          url: '/realty-api/v1/auth/login',
          payload: { username: i % 2 ? user.username : unique('ghost_'), password: `wrong password ${i}` },
        })
        .then((res) => {
          finished++;
          return res.statusCode;
        }),
    );
    let healthAnswers = 0;
    while (finished < burst.length) {
      if ((await t.app.inject({ method: 'GET', url: '/health' })).statusCode === 200) healthAnswers++;
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    expect((await Promise.all(burst)).every((status) => status === 401 || status === 429)).toBe(true);
    // Measured here: 29–43 answers with hashing on the thread pool; 2 when verification ran on the loop.
    expect(healthAnswers).toBeGreaterThanOrEqual(burst.length / 2);
  });
});
