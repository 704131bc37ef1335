import v8 from 'node:v8';

/**
 * How far V8 lets the heap grow past what survived its last full collection before it collects again: 50 %.
 *
 * Left to itself, V8 picks a factor of up to 4 when collections are cheap next to the work between them, as
 * they are in a command that streams records through a small working set: the garbage of each batch (rows,
 * drafts, statements) outlives a few young-generation collections, moves to the old generation and stays
 * there until the heap is four times the live data. `realty-api import` of 100,000 CSV listings on SQLite
 * kept 40-60 MB alive after every full collection, yet its heap reached 255 MB before each one. With 50 %,
 * its peak resident memory went from 686 to 524 MB (the rest is SQLite's page cache, db/dialect/bulk-load.ts)
 * (31 full collections instead of 8, 0.4 s in all, timed beside the 64 MiB cache), and an export of those 110,000 listings peaked at 195-204 MB
 * in four runs instead of 194-305 MB (160 MB of that is the application loaded), 2026-11-27.
 */
const HEAP_GROWING_PERCENT = 50;

/**
 * For a command that streams many records (`realty-api import` and `export`): the process's memory then
 * follows its live data instead of four times it. Set at run time, as early as can be: V8 reads the setting
 * when a full collection sets the next one's limit. The server keeps V8's own heuristics, tuned for latency.
 */
export function keepHeapNearLiveData(): void {
  v8.setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
}
