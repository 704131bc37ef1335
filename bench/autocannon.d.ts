// autocannon ships no types; this declares the part of its API that bench/measure.ts uses.
declare module 'autocannon' {
  namespace autocannon {
    interface Options {
      url: string;
      connections: number;
      /** Seconds. */
      duration: number;
      /** Seconds a request may take before it counts as a timeout. */
      timeout?: number;
      method?: 'GET' | 'POST';
      headers?: Record<string, string>;
    }
    interface Result {
      errors: number;
      timeouts: number;
      non2xx: number;
      /** Completed requests per second, sampled every second. */
      requests: { average: number };
    }
    /** A running benchmark: a thenable for the result that also emits one event per response. */
    interface Instance extends PromiseLike<Result> {
      on(event: 'response', listener: (client: unknown, statusCode: number, bytes: number, responseTimeMs: number) => void): this;
    }
  }
  function autocannon(options: autocannon.Options): autocannon.Instance;
  export = autocannon;
}
