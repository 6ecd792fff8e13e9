import { configDefaults, defineConfig } from 'vitest/config'

/**
 * Two projects: the unit tests (everything under test/ except the browser tests, fast, in parallel)
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
