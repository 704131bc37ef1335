import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/** The API server that `npm run dev` (in console/) sends API calls to while Vite serves the pages. */
const apiServer = process.env.CONSOLE_DEV_API ?? 'http://127.0.0.1:3000';

export default defineConfig({
  // The API process serves the build at /console (src/http/console.ts).
  base: '/console/',
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // The first load carries React, Refine and the signed-in shell; maps and charts come as their own chunks.
    chunkSizeWarningLimit: 400,
  },
  server: {
    proxy: {
      '/realty-api': apiServer,
      '/uploads': apiServer,
      '/console/config.json': apiServer,
    },
  },
});
