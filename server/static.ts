import { createReadStream } from 'node:fs'
import { realpath, stat } from 'node:fs/promises'
import { extname, join, resolve, sep } from 'node:path'
import type { IncomingMessage, ServerResponse } from 'node:http'

/**
 * Serves the built web page (`dist/web/dist`, made by `npm run build`: index.html and its
 * assets) and, while it has not been built, a plain page that says the server is up and how to connect. The folder is looked up
 * per request, so building the page while the server runs is enough to start serving it.
 *
 * A file is served only when its real path (symlinks resolved) lies inside the folder's real
 * path, so a symlink in the folder cannot expose the rest of the disk. Source maps (`.map`) are
 * served only with SERVE_SOURCE_MAPS. sirv was considered instead: it checks the requested path
 * as a string prefix only (it follows symlinks out of its root, and a root `dist` admits
 * `dist2`), and it reads the folder once at start-up, which this server must not.
 */

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.txt': 'text/plain; charset=utf-8',
  '.wasm': 'application/wasm',
  '.webmanifest': 'application/manifest+json',
}

export interface StaticSiteOptions {
  webDir: string
  /** Whether connections need a token, for the fallback page's instructions. */
  authEnabled: boolean
  /** Whether `.map` files are served (they show the source; off by default). */
  serveSourceMaps?: boolean
}

export type StaticHandler = (request: IncomingMessage, response: ServerResponse, pathname: string) => Promise<void>

export function createStaticHandler(options: StaticSiteOptions): StaticHandler {
  const root = resolve(options.webDir)
  return async (request, response, pathname) => {
    const file = await findFile(root, pathname, options.serveSourceMaps === true)
    if (file !== null) return sendFile(request, response, file, pathname)
    if (pathname === '/' || pathname === '/index.html') return sendFallbackPage(request, response, options.authEnabled)
    sendText(response, 404, 'not found\n')
  }
}

interface FoundFile {
  path: string
  size: number
  modified: number
}

/** The file `pathname` names inside `root`, or null; never a path outside `root`, symlinks followed. */
async function findFile(root: string, pathname: string, serveSourceMaps: boolean): Promise<FoundFile | null> {
  let relative: string
  try {
    relative = decodeURIComponent(pathname)
  } catch {
    return null
  }
  if (relative.includes('\0')) return null
  if (relative.endsWith('/')) relative += 'index.html'
  const path = resolve(join(root, relative))
  if (!path.startsWith(root + sep)) return null
  if (!serveSourceMaps && extname(path).toLowerCase() === '.map') return null
  try {
    const [real, realRoot] = await Promise.all([realpath(path), realpath(root)])
    if (!real.startsWith(realRoot + sep)) return null
    if (!serveSourceMaps && extname(real).toLowerCase() === '.map') return null
    const info = await stat(real)
    return info.isFile() ? { path: real, size: info.size, modified: info.mtimeMs } : null
  } catch {
    return null
  }
}

function sendFile(request: IncomingMessage, response: ServerResponse, file: FoundFile, pathname: string): void {
  const { path, size } = file
  const type = CONTENT_TYPES[extname(path).toLowerCase()] ?? 'application/octet-stream'
  // Vite puts content-hashed names under /assets/; everything else may change with a rebuild,
  // and is revalidated: the ETag turns an unchanged file into a 304 without a body.
  const cache = pathname.startsWith('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache'
  const etag = `W/"${size.toString(16)}-${Math.floor(file.modified).toString(16)}"`
  if (request.headers['if-none-match'] === etag) {
    response.writeHead(304, { ETag: etag, 'Cache-Control': cache })
    response.end()
    return
  }
  response.writeHead(200, { 'Content-Type': type, 'Content-Length': size, 'Cache-Control': cache, ETag: etag, 'X-Content-Type-Options': 'nosniff' })
  if (request.method === 'HEAD') {
    response.end()
    return
  }
  createReadStream(path)
    .on('error', () => response.destroy())
    .pipe(response)
}

function sendText(response: ServerResponse, status: number, body: string): void {
  response.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', 'Content-Length': Buffer.byteLength(body), 'X-Content-Type-Options': 'nosniff' })
  response.end(body)
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`)
}

function sendFallbackPage(request: IncomingMessage, response: ServerResponse, authEnabled: boolean): void {
  const host = escapeHtml(request.headers.host ?? 'HOST:PORT')
  const params = authEnabled ? ', { params: { token } }' : ''
  const access = authEnabled
    ? '<p>This server requires a token: <code>npm run token -- --room my-room --mode rw --ttl 1h</code> prints one, sent as <code>?token=</code>.</p>'
    : '<p>This server is open: anyone who can reach it can read and write every room.</p>'
  const body = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Cotext server</title></head>
<body>
<h1>Cotext server is up</h1>
<p>The web editor has not been built yet (<code>dist/web/dist</code> is missing: <code>npm run build</code> makes it).</p>
<p>Each room is a WebSocket URL: <code>ws://${host}/&lt;room&gt;</code>, spoken in the y-websocket protocol.</p>
${access}
<pre>import * as Y from 'yjs'
import { WebsocketProvider } from 'y-websocket'

const doc = new Y.Doc()
const provider = new WebsocketProvider('ws://${host}', 'my-room', doc${escapeHtml(params)})
doc.getText('text').insert(0, 'hello')</pre>
<p>Health: <a href="/healthz">/healthz</a>, metrics: <a href="/metrics">/metrics</a>.</p>
</body>
</html>
`
  response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Content-Length': Buffer.byteLength(body), 'Cache-Control': 'no-cache', 'X-Content-Type-Options': 'nosniff' })
  response.end(request.method === 'HEAD' ? undefined : body)
}
