import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

/** The API server that `npm run dev` (in console/) sends API calls to while Vite serves the pages. */
const apiServer = process.env.CONSOLE_DEV_API ?? 'http://127.0.0.1:3000';

/**
 * The stylesheet first in the built page's head, before the scripts Vite lists: the page paints once its CSS is
 * there, and a phone's few connections then fetch it before the scripts rather than after them.
 */
function stylesheetFirst(): Plugin {
  return {
    name: 'realty-stylesheet-first',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html) {
        const sheets = html.match(/<link rel="stylesheet"[^>]*>\n?/g) ?? [];
        const firstScript = html.search(/<(script|link rel="modulepreload")/);
        if (sheets.length === 0 || firstScript < 0) return html;
        const rest = sheets.reduce((page, sheet) => page.replace(sheet, ''), html);
        const at = rest.search(/<(script|link rel="modulepreload")/);
        return `${rest.slice(0, at)}${sheets.map((sheet) => sheet.trim()).join('\n    ')}\n    ${rest.slice(at)}`;
      },
    },
  };
}

export default defineConfig({
  // The API process serves the build at /console (src/http/console.ts).
  base: '/console/',
  plugins: [react(), stylesheetFirst()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // The first load carries React, Refine and the signed-in shell; maps and charts come as their own chunks.
    chunkSizeWarningLimit: 400,
    rolldownOptions: {
      output: {
        codeSplitting: {
          // The shell's modules and the features' small logic modules (lower-case file names, not pages) that the
          // entry shares with lazy pages go into one chunk rather than a dozen of 1 KB each: a phone on HTTP/1.1
          // fetches six files at a time, so a dozen small files cost it round trips before the first paint.
          groups: [
            {
              name: 'shell',
              test: /\/console\/src\/(api|components|i18n|layout|refine|settings|features\/[^/]+\/[a-z][^/]*\.tsx?$)|\/node_modules\/(react|react-dom|scheduler)\//,
              minShareCount: 2,
            },
          ],
        },
      },
    },
  },
  server: {
    proxy: {
      '/realty-api': apiServer,
      '/uploads': apiServer,
      '/console/config.json': apiServer,
    },
  },
});
