/** What the server tells the console about itself (GET /console/config.json, src/http/console.ts). */
export interface ConsoleSettings {
  /** The API's base path (`API_PREFIX` + /realty-api/v1). */
  api_base: string;
  /** Map tiles, with {z}/{x}/{y} placeholders (CONSOLE_TILE_URL). */
  tile_url: string;
  tile_attribution: string;
}

let current: ConsoleSettings = {
  api_base: '/realty-api/v1',
  tile_url: 'https://tile.openstreetmap.org/{z}/{x}/{y}.png',
  tile_attribution: '© OpenStreetMap contributors',
};

export async function loadSettings(): Promise<ConsoleSettings> {
  const response = await fetch('/console/config.json', { headers: { accept: 'application/json' } });
  if (response.ok) current = (await response.json()) as ConsoleSettings;
  return current;
}

export function settings(): ConsoleSettings {
  return current;
}
