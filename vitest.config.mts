import { fileURLToPath } from 'node:url';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'main',
          environment: 'node',
          include: ['test/main/**/*.test.ts', 'test/bench/**/*.test.ts'],
          testTimeout: 20_000,
        },
      },
      {
        plugins: [svelte()],
        resolve: {
          conditions: ['browser'],
          alias: { $shared: fileURLToPath(new URL('./electron/shared', import.meta.url)) },
        },
        test: {
          name: 'renderer',
          environment: 'jsdom',
          include: ['test/renderer/**/*.test.ts'],
          setupFiles: ['test/renderer/setup.ts'],
        },
      },
      {
        test: {
          name: 'e2e',
          environment: 'node',
          include: ['test/e2e/**/*.test.ts'],
          testTimeout: 120_000,
          hookTimeout: 180_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
