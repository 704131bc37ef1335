import type { SavedSearchSummary } from './alerts-data.js';
import { formatTable } from './stats.js';

export interface Timing {
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  count: number;
  /** Every sample, in the order measured. */
  values: number[];
}

export interface AlertsDataset {
  dialect: 'sqlite' | 'postgres';
  listings: number;
  publishedListings: number;
  searches: SavedSearchSummary;
  index: {
    searches: number;
    queries: number;
    selections: number;
    termLists: number;
    coldBuildMs: number;
    secondBuildMs: number;
    heapMb: number;
  };
  /** Saved searches each measured listing matched (rows noted). */
  matchedPerListing: number;
  /** Announcements of instant searches per listing (the matchPublished + announce samples). */
  instantPerListing: number;
  timings: {
    /** One listing, in its own transaction (commit included), the index warm. */
    matchPublished: Timing;
    /** The same, then Notifier.announce of its instant announcements in the same transaction. */
    matchPublishedAndAnnounce: Timing;
    /** Baseline: a transaction that only loads the listing for the matcher (loadMatchableListings). */
    floor: Timing;
    /** The index's lookup alone, in memory. */
    indexLookup: Timing;
    /** Baseline: matchesListing against every saved search, resolved beforehand, in memory. */
    everySearch: Timing;
    /** The check at the start of every call when nothing changed (terms stamp, saved-search fingerprint). */
    refreshUnchanged: Timing;
  };
  /** One refresh each: after a saved search was added, one deleted, a searched city's slug changed. */
  changes: { addedMs: number; deletedMs: number; renamedMs: number };
}

export interface AlertsReport {
  date: string;
  node: string;
  cpus: number;
  loadAverage: { start: number; end: number };
  samples: number;
  targetMs: number;
  datasets: AlertsDataset[];
  skipped: string[];
}

const ms = (value: number) => (value >= 100 ? value.toFixed(0) : value.toFixed(2));
const count = (value: number) => Math.round(value).toLocaleString('en-US');
const ratio = (a: number, b: number) => `× ${(a / b).toFixed(1)}`;

/** The human summary, on stdout. */
export function printAlertsReport(report: AlertsReport, jsonPath: string): void {
  const lines = [
    '',
    `realty-api alerts bench: node ${report.node}, ${report.cpus} CPUs, ${report.samples} listings per measurement, ` +
      `load average ${report.loadAverage.start.toFixed(2)} at the start, ${report.loadAverage.end.toFixed(2)} at the end`,
  ];
  let missed = 0;
  for (const d of report.datasets) {
    const { timings: t, index } = d;
    const f = d.searches.byFrequency;
    lines.push(
      '',
      `${d.dialect}: ${count(d.searches.searches)} saved searches of ${count(d.searches.users)} users ` +
        `(${count(f.instant)} instant, ${count(f.daily)} daily, ${count(f.weekly)} weekly; seeded in ${d.searches.seconds.toFixed(1)} s), ` +
        `${count(d.listings)} listings (${count(d.publishedListings)} published)`,
      `index: ${count(index.queries)} distinct queries, ${count(index.selections)} term selections, ${count(index.termLists)} value lists resolved; cold build ${ms(index.coldBuildMs)} ms ` +
        `(again: ${ms(index.secondBuildMs)} ms), heap +${index.heapMb.toFixed(0)} MB; each listing matched ${d.matchedPerListing.toFixed(0)} saved searches ` +
        `(${d.instantPerListing.toFixed(1)} instant announcements)`,
      '',
      formatTable(
        ['per listing', 'p50 ms', 'p99 ms', 'max ms', 'against'],
        [
          [
            'matchPublished (own transaction, index warm)',
            ms(t.matchPublished.p50Ms),
            ms(t.matchPublished.p99Ms),
            ms(t.matchPublished.maxMs),
            `floor ${ratio(t.matchPublished.p50Ms, t.floor.p50Ms)}`,
          ],
          [
            'matchPublished + Notifier.announce',
            ms(t.matchPublishedAndAnnounce.p50Ms),
            ms(t.matchPublishedAndAnnounce.p99Ms),
            ms(t.matchPublishedAndAnnounce.maxMs),
            '',
          ],
          ['baseline (floor): transaction + loadMatchableListings', ms(t.floor.p50Ms), ms(t.floor.p99Ms), ms(t.floor.maxMs), ''],
          [
            'index lookup, in memory',
            ms(t.indexLookup.p50Ms),
            ms(t.indexLookup.p99Ms),
            ms(t.indexLookup.maxMs),
            `${ratio(t.everySearch.p50Ms, t.indexLookup.p50Ms)} faster`,
          ],
          [
            'baseline: matchesListing × every saved search, in memory',
            ms(t.everySearch.p50Ms),
            ms(t.everySearch.p99Ms),
            ms(t.everySearch.maxMs),
            '',
          ],
          ['refresh check, nothing changed', ms(t.refreshUnchanged.p50Ms), ms(t.refreshUnchanged.p99Ms), ms(t.refreshUnchanged.maxMs), ''],
        ],
      ),
      '',
      `refresh after one saved search added ${ms(d.changes.addedMs)} ms, deleted ${ms(d.changes.deletedMs)} ms, ` +
        `a searched city's slug changed ${ms(d.changes.renamedMs)} ms`,
    );
    const met = t.matchPublished.p50Ms < report.targetMs && t.matchPublished.p99Ms < report.targetMs;
    if (!met) missed++;
    lines.push(`target: matchPublished p50 and p99 < ${report.targetMs} ms: ${met ? 'ok' : 'MISSED'}`);
  }
  for (const skipped of report.skipped) lines.push('', `skipped: ${skipped}`);
  lines.push(
    '',
    missed === 0 ? `all ${report.datasets.length} targets met` : `MISSED ${missed} of ${report.datasets.length} targets`,
    `results: ${jsonPath}`,
  );
  console.log(lines.join('\n'));
}
