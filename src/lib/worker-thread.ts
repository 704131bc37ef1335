import { on } from 'node:events';
import { Worker } from 'node:worker_threads';

/**
 * A worker thread running `module`, named by its compiled path (`new URL('./<name>.js', import.meta.url)`): the
 * compiled file next to the caller's (dist/, or the tests' bundled programs, which bundle each worker beside
 * them), or under tsx (npm run dev, seed, tests) the TypeScript source. Node 20 does not hand tsx's loader to a
 * worker's entry module, so a one-line script registers it in the thread first.
 */
export function startModuleWorker(module: URL, workerData: unknown): Worker {
  if (!import.meta.url.endsWith('.ts')) return new Worker(module, { workerData });
  const source = new URL(module.href.replace(/\.js$/, '.ts'));
  const tsx = import.meta.resolve('tsx/esm/api');
  const bootstrap = `import(${JSON.stringify(tsx)}).then(({ register }) => { register(); return import(${JSON.stringify(source.href)}); })`;
  return new Worker(bootstrap, { eval: true, workerData });
}

/**
 * The pages a worker makes on demand (`servePages` on its side), `ahead` asked for before they are needed:
 * the worker makes the next ones while the caller works on this one, and memory holds at most `ahead` + 1.
 * A `null` page ends them. The worker is stopped when the caller stops reading or `cancel` aborts (a running
 * worker would keep a process that is shutting down alive), and its error (or an exit without one) is thrown
 * here.
 */
export async function* pagesFromWorker<T>(worker: Worker, ahead = 2, cancel?: AbortSignal): AsyncGenerator<T> {
  try {
    // A worker that dies without an error event would otherwise leave the loop waiting for ever.
    const exited = new AbortController();
    worker.once('exit', (code) => exited.abort(new Error(`the worker thread exited with code ${code}`)));
    const signal = cancel ? AbortSignal.any([exited.signal, cancel]) : exited.signal;
    for (let asked = 0; asked < ahead; asked++) worker.postMessage('more');
    for await (const [page] of on(worker, 'message', { signal }) as AsyncIterable<[T | null]>) {
      if (page === null) return;
      yield page;
      worker.postMessage('more');
    }
  } finally {
    await worker.terminate();
  }
}

/** The worker's side of `pagesFromWorker`: each request gets the next page of `pages`, in order, then `null`. */
export function servePages<T>(
  port: { on(event: 'message', listener: () => void): void; postMessage(value: unknown): void },
  pages: AsyncIterator<T>,
): void {
  let queue = Promise.resolve();
  port.on('message', () => {
    // One page at a time, in order; a failure is an unhandled rejection, which ends the thread with an error event.
    queue = queue.then(async () => {
      const next = await pages.next();
      port.postMessage(next.done ? null : next.value);
    });
  });
}
