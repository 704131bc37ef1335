import { describe, expect, it } from 'vitest';
import { createLogger } from '../../src/logger.js';
import { testConfig } from '../helpers/app.js';

/** The lines a logger writes, parsed. */
function capturingLogger() {
  const lines: Record<string, unknown>[] = [];
  const log = createLogger(testConfig({ LOG_LEVEL: 'info' }), { write: (line: string) => void lines.push(JSON.parse(line)) });
  return { log, lines };
}

describe('log redaction', () => {
  it('never writes the credentials of a request or an answer: bearer token, cookies, token fields', () => {
    const { log, lines } = capturingLogger();
    log.info(
      {
        req: { headers: { authorization: 'Bearer SECRET-A', cookie: 'realty_refresh=SECRET-B' } },
        res: { headers: { 'set-cookie': 'realty_refresh=SECRET-C; Path=/realty-api/v1/auth/token; HttpOnly' } },
        body: { refresh_token: 'SECRET-D', password: 'SECRET-E' },
      },
      'probe',
    );
    expect(lines).toHaveLength(1);
    expect(JSON.stringify(lines[0])).not.toMatch(/SECRET/);
    expect(lines[0]).toMatchObject({
      req: { headers: { authorization: '[Redacted]', cookie: '[Redacted]' } },
      res: { headers: { 'set-cookie': '[Redacted]' } },
      body: { refresh_token: '[Redacted]', password: '[Redacted]' },
    });
  });
});
