import fs from 'node:fs';
import path from 'node:path';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

/**
 * Every installed package runs on the oldest Node the project supports (package.json `engines`): `npm ci` prints
 * an EBADENGINE warning for one that does not, and such a package may use an API this Node lacks. When an update
 * brings one in (content-disposition 3 and cookie 2 asked for Node 22), package.json `overrides` pins the last
 * release made for ours.
 */

const ROOT = path.join(import.meta.dirname, '..');
const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string } };
const lock = JSON.parse(fs.readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8')) as {
  packages: Record<string, { version?: string; engines?: Record<string, string> | string[] }>;
};

/** The packages of the lockfile that ask for a Node the project's oldest does not satisfy: `path@version needs range`. */
function tooNewFor(oldest: string, packages: typeof lock.packages): string[] {
  return Object.entries(packages).flatMap(([where, entry]) => {
    // Old packages wrote `engines` as an array of strings; npm ignores that form, and so does this check.
    const range = entry.engines && !Array.isArray(entry.engines) ? entry.engines.node : undefined;
    if (range === undefined || semver.satisfies(oldest, range)) return [];
    return [`${where || '(root)'}@${entry.version ?? '?'} needs node ${range}`];
  });
}

describe('dependency engines', () => {
  const oldest = semver.minVersion(manifest.engines.node)!.version;

  it('every package in the lockfile runs on the oldest supported Node', () => {
    expect(tooNewFor(oldest, lock.packages)).toEqual([]);
  });

  it('names a package that asks for a newer Node', () => {
    const planted = { 'node_modules/cookie': { version: '2.0.2', engines: { node: '>=22' } } };
    expect(tooNewFor(oldest, { ...lock.packages, ...planted })).toEqual([`node_modules/cookie@2.0.2 needs node >=22`]);
  });
});
