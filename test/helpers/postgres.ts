import pg from 'pg';

/** `url` with another database name. */
export function postgresUrlFor(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

/** Runs statements on a connection of its own (CREATE and DROP DATABASE cannot run inside a pool's transaction). */
export async function postgresAdmin<T>(url: string, use: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}
