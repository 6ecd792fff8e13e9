import { configDefaults, defineConfig } from 'vitest/config'

/**
 * Three projects: the unit tests (everything under test/ except the browser tests, fast, in parallel),
 * the Yjs conformance test against the oldest Yjs the peer range allows (`yjs` resolved to `yjs-oldest`),
 * and the web page's browser tests (test/web/browser: a real server and Debian's Chromium, one file
 * at a time, with timeouts that allow for a cold browser start on a loaded 2-core machine).
 */
export default defineConfig({
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/**/*.test.ts'],
          exclude: [...configDefaults.exclude, 'test/web/browser/**'],
          // Tests that parse megabytes or start services: generous on a loaded 2-core machine (no test asserts a time).
          testTimeout: 30_000,
        },
      },
      {
        // The Yjs conformance test again, with \`yjs\` resolved to 13.6.0: the oldest release the peer range allows.
        extends: true,
        resolve: { alias: { yjs: 'yjs-oldest' } },
        test: {
          name: 'yjs-oldest',
          include: ['test/buffer/yjs-conformance.test.ts', 'test/buffer/transaction-update.test.ts'],
          env: { COTEXT_YJS: 'yjs 13.6.0' },
          // The same seeded fuzzes as the unit project, with its allowance for a loaded machine.
          testTimeout: 30_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'browser',
          include: ['test/web/browser/**/*.test.ts'],
          globalSetup: ['test/web/browser/global-setup.ts'],
          fileParallelism: false,
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
})
