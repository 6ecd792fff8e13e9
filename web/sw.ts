/**
 * The page's service worker: it keeps a copy of the page (index.html and its /assets/) so that a
 * reload works while the server is down; the text itself comes from IndexedDB. Every request it
 * handles goes to the network first, so a running server always serves the current page; the
 * cache only answers when the network fails. WebSockets never pass through a service worker.
 */

// Service-worker types are not in the DOM library this project compiles against; these are the
// few members used here.
interface ExtendableEventLike extends Event {
  waitUntil(promise: Promise<unknown>): void
}
interface FetchEventLike extends ExtendableEventLike {
  readonly request: Request
  respondWith(response: Promise<Response>): void
}
interface ServiceWorkerScope {
  addEventListener(type: 'install' | 'activate', listener: (event: ExtendableEventLike) => void): void
  addEventListener(type: 'fetch', listener: (event: FetchEventLike) => void): void
  skipWaiting(): Promise<void>
  readonly clients: { claim(): Promise<void> }
  readonly location: Location
}

const scope = self as unknown as ServiceWorkerScope
const CACHE = 'cotext-page-v1'
const ASSET_REFERENCE = /(?:src|href)="(\/assets\/[^"]+)"/g

/** The page and every asset its HTML names, fetched fresh. */
async function cachePage(): Promise<void> {
  const cache = await caches.open(CACHE)
  const response = await fetch('/', { cache: 'no-store' })
  if (!response.ok) return
  const html = await response.clone().text()
  await cache.put('/', response)
  const assets = [...html.matchAll(ASSET_REFERENCE)].map((match) => match[1]!)
  await cache.addAll(assets)
}

function isPageRequest(request: Request): boolean {
  if (request.method !== 'GET') return false
  const url = new URL(request.url)
  if (url.origin !== scope.location.origin) return false
  return request.mode === 'navigate' || url.pathname === '/' || url.pathname === '/index.html' || url.pathname.startsWith('/assets/')
}

async function networkFirst(request: Request): Promise<Response> {
  const cache = await caches.open(CACHE)
  const url = new URL(request.url)
  // Every room is the same page: `/?room=a` and `/?room=b` share the cached `/`.
  const key = request.mode === 'navigate' || url.pathname === '/index.html' ? '/' : url.pathname
  try {
    const response = await fetch(request)
    if (response.ok) await cache.put(key, response.clone())
    return response
  } catch (error) {
    const cached = await cache.match(key)
    if (cached !== undefined) return cached
    throw error
  }
}

scope.addEventListener('install', (event) => {
  event.waitUntil(cachePage().then(() => scope.skipWaiting()))
})

scope.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((key) => key !== CACHE).map((key) => caches.delete(key))))
      .then(() => scope.clients.claim()),
  )
})

scope.addEventListener('fetch', (event) => {
  if (isPageRequest(event.request)) event.respondWith(networkFirst(event.request))
})
