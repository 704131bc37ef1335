import http from 'node:http';
import {
  API,
  type Check,
  figure,
  median,
  ms,
  positiveInteger,
  register,
  request,
  scratchDatabase,
  ServerProcess,
  uniqueName,
  verdict,
} from './lib.js';

/**
 * Check 5: does POST /auth/reset-password take as long for an unknown address as for a registered one? The
 * service does the same work for both (one outbox insert), so the answer's timing must not tell them apart.
 * After a warm-up, 4 rounds of 20 requests for each address, interleaved (known, unknown, unknown, known,
 * … so neither is always first), one at a time on one kept-alive connection. FAIL if the medians of all the
 * known and all the unknown requests differ by more than 1 ms.
 */

const LIMIT_MS = 1;

export const resetTiming: Check = {
  name: 'reset-timing',
  title: '5. reset-password timing',
  async run({ target, dir, cleanups }) {
    const rounds = positiveInteger('CHAOS_RESET_ROUNDS', 4);
    const perRound = positiveInteger('CHAOS_RESET_PER_ROUND', 20);
    const databaseUrl = await scratchDatabase(target, dir, cleanups);
    // Rate limits off: the reset route allows 10 a minute per address by default.
    const server = await ServerProcess.start(cleanups, { databaseUrl, dir, env: { RATE_LIMIT_ENABLED: 'false' } });
    await server.waitReady();
    const run = uniqueName();
    const known = (await register(server.port, `${run}_known`, 'buyer')).email;
    const unknown = `${run}_nobody@chaos.example`;

    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const send = async (email: string) => {
      const response = await request({ port: server.port, method: 'POST', path: `${API}/auth/reset-password`, body: { email }, agent });
      if (response.status !== 200)
        throw new Error(`reset-password for ${email} answered ${response.status}: ${response.text.slice(0, 200)}`);
      return response.ms;
    };
    const pair = async (i: number, times: { known: number[]; unknown: number[] }) => {
      if (i % 2 === 0) {
        times.known.push(await send(known));
        times.unknown.push(await send(unknown));
      } else {
        times.unknown.push(await send(unknown));
        times.known.push(await send(known));
      }
    };

    try {
      const warmUp = { known: [] as number[], unknown: [] as number[] };
      for (let i = 0; i < 20; i++) await pair(i, warmUp);
      const all = { known: [] as number[], unknown: [] as number[] };
      for (let round = 1; round <= rounds; round++) {
        const times = { known: [] as number[], unknown: [] as number[] };
        for (let i = 0; i < perRound; i++) await pair(i, times);
        all.known.push(...times.known);
        all.unknown.push(...times.unknown);
        figure(
          `round ${round}: median known ${ms(median(times.known))}, unknown ${ms(median(times.unknown))}, ` +
            `difference ${signed(median(times.known) - median(times.unknown))}`,
        );
      }
      await server.stop();
      const difference = median(all.known) - median(all.unknown);
      figure(
        `all ${rounds} × ${perRound}: median known ${ms(median(all.known))}, unknown ${ms(median(all.unknown))}, ` +
          `difference ${signed(difference)} (limit ±${LIMIT_MS} ms)`,
      );
      const problems = Math.abs(difference) > LIMIT_MS ? [`the medians differ by ${signed(difference)}, more than ${LIMIT_MS} ms`] : [];
      return verdict(
        `median known ${ms(median(all.known))}, unknown ${ms(median(all.unknown))}, difference ${signed(difference)} (limit ±${LIMIT_MS} ms)`,
        problems,
      );
    } finally {
      agent.destroy();
    }
  },
};

function signed(value: number): string {
  return `${value >= 0 ? '+' : '−'}${Math.abs(value).toFixed(3)} ms`;
}
