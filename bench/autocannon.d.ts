// autocannon ships no types; this declares the part of its API that bench/measure.ts uses.
declare module 'autocannon' {
  namespace autocannon {
    /** One request of a sequence a connection loops over; `path` replaces the URL's path and query. */
    interface Request {
      path?: string;
      method?: 'GET' | 'POST';
      headers?: Record<string, string>;
    }
    /** One connection. */
    interface Client {
      /** Replaces the sequence of requests this connection loops over (it starts again at the first). */
      setRequests(requests: Request[]): void;
    }
    interface Options {
      url: string;
      connections: number;
      /** Seconds. */
      duration: number;
      /** Seconds a request may take before it counts as a timeout. */
      timeout?: number;
      method?: 'GET' | 'POST';
      headers?: Record<string, string>;
      /** The sequence of requests each connection loops over, from the first. */
      requests?: Request[];
      /** Called with each connection as it is made, before its first request. */
      setupClient?: (client: Client) => void;
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
      on(event: 'response', listener: (client: Client, statusCode: number, bytes: number, responseTimeMs: number) => void): this;
    }
  }
  function autocannon(options: autocannon.Options): autocannon.Instance;
  export = autocannon;
}
