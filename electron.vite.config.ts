import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import { svelte } from '@sveltejs/vite-plugin-svelte';

// Main and preload build as CommonJS (package.json has no "type": "module"); the sandboxed
// preload must be a single file, which it is: it imports only `electron` and electron/shared.
// `$shared` is electron/shared (the IPC contract and domain types) on every side, as in the
// tsconfigs and vitest.
const shared = { $shared: resolve(__dirname, 'electron/shared') };

export default defineConfig({
  main: {
    resolve: { alias: shared },
    build: {
      rollupOptions: {
        input: {
          index: resolve(__dirname, 'electron/main/index.ts'),
          // Decodes recordings to peaks in a worker thread (electron/main/peaks/worker.ts).
          'peaks-worker': resolve(__dirname, 'electron/main/peaks/worker.ts'),
          // Rewraps MP3 recordings in MP4 in a worker thread (electron/main/recordings/mp3-remux-worker.ts).
          'mp3-remux-worker': resolve(__dirname, 'electron/main/recordings/mp3-remux-worker.ts'),
        },
      },
    },
  },
  preload: {
    resolve: { alias: shared },
    build: { rollupOptions: { input: { index: resolve(__dirname, 'electron/preload/index.ts') } } },
  },
  renderer: {
    root: resolve(__dirname, 'renderer'),
    resolve: { alias: shared },
    plugins: [svelte()],
    build: { rollupOptions: { input: { index: resolve(__dirname, 'renderer/index.html') } } },
  },
});
