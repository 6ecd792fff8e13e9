import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vite'

const root = fileURLToPath(new URL('.', import.meta.url))

/**
 * `npm run build` (= `vite build web`): the page the server serves from web/dist, plus its service worker.
 * In mode `bench` (bench/web-vs-codemirror.bench.ts, test/web/browser/codemirror-page.test.ts) it builds
 * only /bench/codemirror.html, the CodeMirror page the benchmark measures ours against, into a folder
 * that already holds our page (`emptyOutDir: false`): each page bundled on its own, as it would ship,
 * and never in the page a server ships.
 */
export default defineConfig(({ mode }) => ({
  root,
  base: '/',
  publicDir: false,
  build: {
    outDir: 'dist',
    emptyOutDir: mode !== 'bench',
    target: 'es2022',
    sourcemap: true,
    // The engine plus Yjs and the Lezer grammars make one ~500 kB chunk; that is expected here.
    chunkSizeWarningLimit: 1500,
    rollupOptions: {
      input: (mode === 'bench' ? { codemirror: `${root}bench/codemirror.html` } : { index: `${root}index.html`, sw: `${root}sw.ts` }) as Record<string, string>,
      // The service worker must keep one name at the root: its URL is its identity and its scope.
      output: { entryFileNames: (chunk) => (chunk.name === 'sw' ? 'sw.js' : 'assets/[name]-[hash].js') },
    },
  },
  logLevel: 'warn',
}))
