import { afterAll, vi } from 'vitest';

// Test files share their worker process (`isolate: false` in vitest.config.ts): whatever a file left
// behind in the process's globals — fake timers, spies, stubbed variables — ends with the file.
afterAll(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
  vi.unstubAllGlobals();
});
