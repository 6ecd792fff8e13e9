import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vite'

const root = fileURLToPath(new URL('.', import.meta.url))

/** `npm run build` (= `vite build web`): the page the server serves from web/dist, plus its service worker. */
export default defineConfig({
  root,
  base: '/',
  publicDir: false,
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: true,
    // The engine plus Yjs and the Lezer grammars make one ~500 kB chunk; that is expected here.
    chunkSizeWarningLimit: 1500,
    rollupOptions: {
      input: { index: `${root}index.html`, sw: `${root}sw.ts` },
      // The service worker must keep one name at the root: its URL is its identity and its scope.
      output: { entryFileNames: (chunk) => (chunk.name === 'sw' ? 'sw.js' : 'assets/[name]-[hash].js') },
    },
  },
  logLevel: 'warn',
})
