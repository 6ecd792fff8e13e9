import { openHomePage, rememberRoom } from './app/home.ts'
import { checkRoomName } from './app/room-name.ts'
import { openRoomPage } from './app/room-page.ts'
import { takeToken } from './app/token-keeper.ts'

/**
 * `/` is the home page; `/?room=NAME` opens that room, by exactly that name (the server's rules,
 * server/room-name.ts): a name it cannot use is refused on the page with the reason, never changed
 * into another room. A `&token=` is taken out of the address bar at once (web/app/token-keeper.ts).
 */
const offlineReady = registerServiceWorker(navigator)

const root = document.getElementById('app')!
const params = new URLSearchParams(window.location.search)
const requested = params.get('room')
if (requested === null) {
  openHomePage(root, window)
} else {
  const check = checkRoomName(requested)
  const token = takeToken(requested, params, sessionStorageOrNull())
  if (window.location.search !== `?${params.toString()}`) window.history.replaceState(null, '', `?${params.toString()}${window.location.hash}`)
  if (check.ok) {
    rememberRoom(window.localStorage, check.name)
    openRoomPage(root, check.name, token, params, window, offlineReady)
  } else {
    openHomePage(root, window, { room: requested, reason: check.reason })
  }
}

function sessionStorageOrNull(): Storage | null {
  try {
    return window.sessionStorage
  } catch {
    return null
  }
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
