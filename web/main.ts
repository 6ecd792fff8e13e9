import { openHomePage, rememberRoom } from './app/home.ts'
import { roomNameFromInput } from './app/room-name.ts'
import { openRoomPage } from './app/room-page.ts'

/** `/` is the home page; `/?room=NAME` opens that room. */
const offlineReady = registerServiceWorker(navigator)

const root = document.getElementById('app')!
const params = new URLSearchParams(window.location.search)
const requested = params.get('room')
const room = requested === null ? null : roomNameFromInput(requested)
if (room !== null) {
  if (room !== requested) {
    params.set('room', room)
    window.history.replaceState(null, '', `?${params.toString()}`)
  }
  rememberRoom(window.localStorage, room)
  openRoomPage(root, room, params, window, offlineReady)
} else {
  openHomePage(root, window)
}

/**
 * The service worker (web/sw.ts, built to /sw.js) keeps a copy of the page, so a reload works while
 * the server is down. Resolves true once it is active; false where there is none (Vite's dev server).
 */
function registerServiceWorker(nav: Navigator): Promise<boolean> {
  if (!('serviceWorker' in nav)) return Promise.resolve(false)
  return nav.serviceWorker
    .register('/sw.js')
    .then(() => nav.serviceWorker.ready)
    .then(
      () => true,
      (error: unknown) => {
        console.warn('cotext: no offline copy of the page:', error)
        return false
      },
    )
}
