import { openHomePage, rememberRoom } from './app/home.ts'
import { roomNameFromInput } from './app/room-name.ts'
import { openRoomPage } from './app/room-page.ts'

/** `/` is the home page; `/?room=NAME` opens that room. */
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
  openRoomPage(root, room, params, window)
} else {
  openHomePage(root, window)
}
