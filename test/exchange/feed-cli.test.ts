import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { item, wxr } from '../adapters/feeds/wxr/wxr-test-helpers.js';
import { startProgram } from '../helpers/programs.js';

/** `realty-api import` and `export` as a user runs them: usage mistakes, the report, the exit status. */
describe('feed commands on the command line', () => {
  let cwd: string;
  beforeAll(() => {
    cwd = fs.mkdtempSync(path.join(os.tmpdir(), 'realty-feed-cli-'));
  });
  afterAll(() => fs.rmSync(cwd, { recursive: true, force: true }));

  const run = (args: string[]) =>
    new Promise<{ code: number | null; out: string; stdout: string }>((resolve) => {
      const child = startProgram('main.mjs', args, {
        cwd,
        env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'warn', DATABASE_URL: 'sqlite:./cli.db', DATA_DIR: cwd },
      });
      let out = '';
      let stdout = '';
      child.stdout.on('data', (chunk) => ((out += chunk), (stdout += chunk)));
      child.stderr.on('data', (chunk) => (out += chunk));
      child.on('exit', (code) => resolve({ code, out, stdout }));
    });

  it('says what is wrong with the command line before touching the database', async () => {
    const results = await Promise.all([
      run(['import', 'feed.csv']),
      run(['import', 'feed.csv', '--format', 'xls']),
      run(['export', '--format', 'wxr']),
      run(['export', '--format', 'csv', '--dry-run']),
      run(['seed', '--format', 'csv']),
      run(['import', '--format', 'csv']),
    ]);
    const messages = [
      'import needs --format, one of: csv, reso, kyero, wxr',
      'import needs --format, one of: csv, reso, kyero, wxr (got "xls")',
      'export needs --format, one of: csv, reso, kyero (got "wxr")',
      '--dry-run does not go with the export command',
      '--format goes with the import or export command',
      'import needs one file, e.g. realty-api import listings.csv --format csv',
    ];
    for (const [n, message] of messages.entries()) {
      expect(results[n]!.code, results[n]!.out).toBe(1);
      expect(results[n]!.out).toContain(message);
    }
    expect(fs.existsSync(path.join(cwd, 'cli.db'))).toBe(false);
  }, 60_000);

  it('imports with a report of the rejected records and exit status 1, then exports what it imported', async () => {
    fs.writeFileSync(path.join(cwd, 'feed.csv'), 'key,title,price\nA,First house,100\nB,x,200\nC,Third house,abc\n');
    const noAdmin = await run(['import', 'feed.csv', '--format', 'csv']);
    expect(noAdmin).toMatchObject({ code: 1, out: expect.stringContaining('create one with `realty-api create-admin`') });
    expect((await run(['create-admin', '--email', 'admin@example.test', '--password', 'long-enough'])).code).toBe(0);

    const imported = await run(['import', 'feed.csv', '--format', 'csv']);
    expect(imported.code, imported.out).toBe(1);
    expect(imported.out).toContain('line 3 (key B): title must be at least 3 characters long');
    expect(imported.out).toContain('line 4 (key C): warning: price must be of type number; left out');
    expect(imported.stdout).toBe('2 created, 0 updated, 0 unchanged, 0 withdrawn, 1 rejected, 1 warning (values left out)\n');

    const dryRun = await run(['import', 'feed.csv', '--format', 'csv', '--dry-run', '--withdraw-missing']);
    expect(dryRun.stdout).toBe(
      'dry run, nothing written: 0 would be created, 0 would be updated, 2 unchanged, 0 would be withdrawn, 1 rejected, 1 warning (values left out)\n',
    );
    // --strict: the unreadable price rejects its record instead.
    fs.writeFileSync(path.join(cwd, 'strict.csv'), 'key,title,price\nD,Fourth house,abc\n');
    const strictCsv = await run(['import', 'strict.csv', '--format', 'csv', '--strict']);
    expect(strictCsv.code, strictCsv.out).toBe(1);
    expect(strictCsv.out).toContain('line 2 (key D): price must be of type number');
    expect(strictCsv.stdout).toMatch(/^0 created, 0 updated, 0 unchanged, 0 withdrawn, 1 rejected/);

    // A RESO feed's Office and Member become an agency and an agent here, which the summary line counts.
    const reso = {
      Office: [{ OfficeKey: 'O1', OfficeName: 'Sol Realty', OfficeEmail: 'office@sol.example' }],
      Member: [{ MemberKey: 'M1', MemberFullName: 'Pia Soto', MemberEmail: 'pia@sol.example', OfficeKey: 'O1' }],
      Property: [{ ListingKey: 'P1', X_Realty_Title: 'Townhouse near the port', ListPrice: 350000, ListAgentKey: 'M1' }],
    };
    fs.writeFileSync(path.join(cwd, 'feed.json'), JSON.stringify(reso));
    const members = await run(['import', 'feed.json', '--format', 'reso']);
    expect(members.stdout, members.out).toBe('1 created, 0 updated, 0 unchanged, 0 withdrawn, 0 rejected; 1 agent and 1 agency created\n');
    const again = await run(['import', 'feed.json', '--format', 'reso']);
    expect(again.stdout, again.out).toBe('0 created, 0 updated, 1 unchanged, 0 withdrawn, 0 rejected\n');

    const exported = await run(['export', '--format', 'csv']);
    expect(exported.code, exported.out).toBe(0);
    expect(exported.stdout.split('\n')[1]).toMatch(/^A,First house,publish,/);

    // A WordPress export whose plan size cannot be read: imported without it, the warning printed; --strict rejects.
    const plan = 'a:1:{i:0;a:2:{s:15:"fave_plan_title";s:5:"Plant";s:14:"fave_plan_size";s:6:"ask us";}}';
    fs.writeFileSync(path.join(cwd, 'site.xml'), wxr(item('7', 'property', { title: 'Villa with a plan', meta: { floor_plans: plan } })));
    const dry = await run(['import', 'site.xml', '--format', 'wxr', '--dry-run']);
    expect(dry.code, dry.out).toBe(0);
    expect(dry.stdout).toContain('migration report (dry run, nothing written):\n  listings: 1 would be imported (1 publish), 0 rejected\n');
    expect(dry.stdout).toContain('  floor plans: 1 (multi-units included)\n');
    expect(dry.stdout).toContain('  warnings: 1 (values left out)\n');
    expect(dry.stdout).toContain('  old addresses: 0 would be kept as redirects\n');
    const strict = await run(['import', 'site.xml', '--format', 'wxr', '--strict']);
    expect(strict.code, strict.out).toBe(1);
    expect(strict.out).toContain('line 4 (key 7): floor_plans must be of type number (in plan 1, fave_plan_size)');
    expect(strict.stdout).toMatch(/^0 created, 0 updated, 0 unchanged, 0 withdrawn, 1 rejected.*--strict\)\nmigration report:\n/);
    const site = await run(['import', 'site.xml', '--format', 'wxr']);
    expect(site.code, site.out).toBe(0);
    expect(site.out).toContain('line 4 (key 7): warning: floor_plans must be of type number (in plan 1, fave_plan_size); left out');
    expect(site.stdout).toMatch(/^1 created, 0 updated, 0 unchanged, 0 withdrawn, 0 rejected, 1 warning \(values left out\)/);
    expect(site.stdout).toContain('migration report:\n  listings: 1 imported (1 publish), 0 rejected\n');

    const missing = await run(['import', 'nowhere.csv', '--format', 'csv']);
    expect(missing).toMatchObject({ code: 1, out: expect.stringContaining('cannot read nowhere.csv: ENOENT') });
    fs.writeFileSync(path.join(cwd, 'broken.xml'), '<root><property><id>1</id>');
    const broken = await run(['import', 'broken.xml', '--format', 'kyero']);
    expect(broken).toMatchObject({
      code: 1,
      out: expect.stringMatching(/the file cannot be read as kyero: line 1: .*nothing after it was imported/),
    });
  }, 90_000);
});
