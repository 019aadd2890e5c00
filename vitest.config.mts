import { fileURLToPath } from 'node:url';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { defineConfig } from 'vitest/config';

/** `$shared` is electron/shared, as in electron.vite.config.ts and the tsconfigs. */
const alias = { $shared: fileURLToPath(new URL('./electron/shared', import.meta.url)) };

export default defineConfig({
  test: {
    projects: [
      {
        resolve: { alias },
        test: {
          name: 'main',
          environment: 'node',
          include: ['test/main/**/*.test.ts', 'test/shared/**/*.test.ts', 'test/bench/**/*.test.ts'],
          testTimeout: 20_000,
          sequence: { groupOrder: 0 },
        },
      },
      {
        plugins: [svelte()],
        resolve: {
          conditions: ['browser'],
          alias,
        },
        test: {
          name: 'renderer',
          environment: 'jsdom',
          include: ['test/renderer/**/*.test.ts'],
          setupFiles: ['test/renderer/setup.ts'],
          // View tests build the whole app in jsdom: beside main's tests on a busy machine they can
          // run past vitest's 5 s default.
          testTimeout: 15_000,
          sequence: { groupOrder: 0 },
        },
      },
      {
        resolve: { alias },
        test: {
          name: 'e2e',
          environment: 'node',
          include: ['test/e2e/**/*.test.ts'],
          testTimeout: 120_000,
          hookTimeout: 180_000,
          fileParallelism: false,
          // After the unit tests (main and renderer run side by side first), so Chromium and the
          // audio decoding never share the CPU with them.
          sequence: { groupOrder: 1 },
          // A busy machine can take seconds to show what a click asked for: expect.poll waits that long.
          expect: { poll: { timeout: 10_000 } },
        },
      },
    ],
  },
});
