import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { startProgram } from '../helpers/programs.js';

/** Debian's Chromium (`apt-get install chromium`; .ci/run installs it when missing); CHROMIUM_PATH overrides. */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** The build `npm run build:console` makes (global-setup.ts); the compiled server lives elsewhere, so it is named. */
const CONSOLE_DIR = fileURLToPath(new URL('../../console/dist', import.meta.url));

export const ADMIN = { email: 'admin@example.com', password: 'admin password 1' };

/** The console's main pages and their English headings as the administrator sees them (the side navigation's entries). */
export const MAIN_PAGES: [string, string][] = [
  ['/', 'Welcome, admin'],
  ['/explore', 'Explore'],
  ['/dashboard', 'Dashboard'],
  ['/moderation', 'Moderation queue'],
  ['/users', 'Users'],
  ['/listings', 'My listings'],
  ['/listings/new', 'New listing'],
  ['/notifications', 'Notifications'],
  ['/saved-searches', 'Saved searches'],
  ['/favorites', 'Favorites'],
  ['/taxonomy', 'Taxonomies'],
  ['/packages', 'Packages'],
  ['/invoices', 'Invoices'],
  ['/profile', 'My profile'],
  ['/leads', 'Leads'],
  ['/membership', 'Membership'],
  ['/my-reviews', 'My reviews'],
  ['/reviews-received', 'Reviews received'],
  ['/broadcast', 'Broadcast notification'],
  ['/deliveries', 'Failed deliveries'],
  ['/redirects', 'Redirects'],
  ['/imports', 'Imports'],
  ['/brand', 'Website brand'],
  ['/webhooks', 'Webhooks'],
  ['/api-clients', 'API clients'],
];

export interface E2eServer {
  /** `http://127.0.0.1:<port>` */
  url: string;
  /** What the server printed so far (stdout and stderr). */
  output(): string;
  /** Calls the API as it answers (the envelope's `data`), throwing on an error answer. */
  api<T>(method: string, route: string, body?: unknown, token?: string): Promise<T>;
  close(): Promise<void>;
}

/**
 * A real server, as `npm start` runs it, on a fresh SQLite database in a directory of its own, on a free
 * port, with the administrator ADMIN and the console build. `demo` seeds the demo data (300 listings).
 * Rate limits are raised: every test signs in from the same address many times a minute.
 */
export async function startServer({ demo = false, env = {} }: { demo?: boolean; env?: Record<string, string> } = {}): Promise<E2eServer> {
  const dir = mkdtempSync(path.join(tmpdir(), 'realty-e2e-'));
  // A port chosen here rather than PORT=0: PUBLIC_URL, and so every media URL, names the port.
  const port = await freePort();
  const child = startProgram('main.mjs', ['serve'], {
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      DATA_DIR: dir,
      DATABASE_URL: `sqlite:${path.join(dir, 'realty.db')}`,
      SEED_DEMO: String(demo),
      HOST: '127.0.0.1',
      PORT: String(port),
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      AUTH_RATE_LIMIT_PER_MINUTE: '10000',
      RATE_LIMIT_PER_MINUTE: '100000',
      FORMS_RATE_LIMIT_PER_MINUTE: '10000',
      LOG_LEVEL: 'warn',
      LOG_FORMAT: 'json',
      OUTBOX_POLL_MS: '100',
      CONSOLE_DIR,
      ...env,
    },
  });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the server did not start:\n${output}`)), 90_000);
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    });
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the server exited with ${code}:\n${output}`));
    });
  });

  return {
    url,
    output: () => output,
    async api<T>(method: string, route: string, body?: unknown, token?: string): Promise<T> {
      const response = await fetch(`${url}/realty-api/v1${route}`, {
        method,
        headers: {
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const answer = (await response.json()) as { success: boolean; data: T; message?: string };
      if (!response.ok) throw new Error(`${method} ${route} answered ${response.status}: ${JSON.stringify(answer)}`);
      return answer.data;
    },
    async close() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/**
 * For a test file: one server (see startServer) and one browser, started before its tests and stopped after.
 * The returned object's fields are set once `beforeAll` has run.
 */
export function consoleSuite(options: { demo?: boolean; env?: Record<string, string> } = {}): { server: E2eServer; browser: Browser } {
  const suite = {} as { server: E2eServer; browser: Browser };
  beforeAll(async () => {
    [suite.server, suite.browser] = await Promise.all([startServer(options), launchBrowser()]);
  });
  afterAll(async () => {
    await suite.browser?.close();
    await suite.server?.close();
  });
  return suite;
}

/** A new account of `role` through the API, signed in: its token for API calls. */
export async function newAccount(
  server: E2eServer,
  role: string,
  name: string,
): Promise<{ login: string; password: string; token: string; id: number }> {
  const password = `${name} password 1`;
  const login = `${name}-${Date.now().toString(36)}`;
  const result = await server.api<{ token: string; user_id: number }>('POST', '/auth/register', {
    username: login,
    email: `${login}@example.com`,
    password,
    role,
  });
  return { login, password, token: result.token, id: result.user_id };
}

export async function adminToken(server: E2eServer): Promise<string> {
  return (await server.api<{ token: string }>('POST', '/auth/login', { username: ADMIN.email, password: ADMIN.password })).token;
}

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
  });
}

/**
 * A page whose problems fail the test: uncaught errors and Content-Security-Policy violations are collected
 * (`problems()`); failed tile and favicon loads are not problems (there is no internet here).
 */
export async function openPage(browser: Browser): Promise<{ page: Page; problems: () => string[] }> {
  const context = await browser.newContext({ locale: 'en-US' });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy|Refused to/i.test(message.text())) problems.push(`CSP: ${message.text()}`);
  });
  return { page, problems: () => problems };
}

export async function signIn(page: Page, server: E2eServer, login: string, password: string): Promise<void> {
  await page.goto(`${server.url}/console/login`);
  await page.getByLabel('E-mail or username').fill(login);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { level: 1, name: /^Welcome/ }).waitFor();
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * axe-core's serious and critical violations of WCAG 2 A/AA on the page as it is now. axe is put in through
 * the DevTools protocol (`evaluate`), which the page's CSP does not govern; the page itself never loads it.
 */
export async function accessibilityViolations(page: Page): Promise<string[]> {
  await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: {
          run(
            context: Document,
            options: object,
          ): Promise<{ violations: { id: string; impact: string; help: string; nodes: { target: string[] }[] }[] }>;
        };
      }
    ).axe;
    const result = await axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      targets: v.nodes.map((n) => n.target.join(' ')).slice(0, 3),
    }));
  });
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.targets.join(', ')}`);
}

/**
 * What makes the page wider than the window (a phone's sideways scrolling): none when the document is no wider than
 * the viewport; else the document's width and the outermost elements that reach past the window's end edge.
 */
export async function sidewaysOverflow(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const width = window.innerWidth;
    if (document.documentElement.scrollWidth <= width) return [];
    const rtl = document.documentElement.dir === 'rtl';
    const outside = (element: Element) => {
      const box = element.getBoundingClientRect();
      return box.width > 0 && (rtl ? box.left < -0.5 : box.right > width + 0.5);
    };
    const name = (element: Element) =>
      `${element.tagName.toLowerCase()}${element.id ? `#${element.id}` : ''}${[...element.classList].map((c) => `.${c}`).join('')}`;
    // Inside a box that clips or scrolls and itself fits (a map's tiles, a scrolling table), an element scrolls nothing.
    const contained = (element: Element) => {
      for (let box = element.parentElement; box && box !== document.body; box = box.parentElement) {
        if (getComputedStyle(box).overflowX !== 'visible' && !outside(box)) return true;
      }
      return false;
    };
    const culprits = [...document.body.querySelectorAll('*')]
      .filter((element) => outside(element) && !(element.parentElement && outside(element.parentElement)) && !contained(element))
      .slice(0, 5)
      .map((element) => `${name(element)} (${Math.round(element.getBoundingClientRect().width)} px)`);
    return [`document ${document.documentElement.scrollWidth} px wide in a ${width} px window`, ...culprits];
  });
}
