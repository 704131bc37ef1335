/**
 * A module imported at its first use instead of when the process starts: `const stripe = lazyModule(() =>
 * import('stripe'))`, then `(await stripe()).default`. For libraries that only some settings or requests need
 * (Stripe, S3, SMTP, image decoding): loading every one of them at start was most of the time before `serve()`
 * ran (chaos check 6). Every call after the first gets the same promise, so the import runs once; a failed
 * import is tried again at the next use.
 */
export function lazyModule<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () =>
    (loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw error;
    }));
}
