import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vite'

/** `npm run build` (= `vite build web`): the page the server serves from web/dist. */
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/',
  // Rooms' documents live in the browser (IndexedDB) and on the server; nothing to copy from public/.
  publicDir: false,
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: true,
    // The engine plus Yjs and the Lezer grammars make one ~500 kB chunk; that is expected here.
    chunkSizeWarningLimit: 1500,
  },
  logLevel: 'warn',
})
