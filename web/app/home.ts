import { randomRoomName, roomNameFromInput } from './room-name.ts'
import { textColorOn } from '../view/colors.ts'
import { loadUser } from './user.ts'

const RECENT_KEY = 'cotext.recentRooms'
const MAX_RECENT = 8

/** Remembers a room for the home page's "recent" list. */
export function rememberRoom(storage: Storage, room: string): void {
  try {
    const recent = readRecent(storage).filter((name) => name !== room)
    storage.setItem(RECENT_KEY, JSON.stringify([room, ...recent].slice(0, MAX_RECENT)))
  } catch {
    // Without storage there is simply no recent list.
  }
}

function readRecent(storage: Storage): string[] {
  try {
    const value: unknown = JSON.parse(storage.getItem(RECENT_KEY) ?? '[]')
    return Array.isArray(value) ? value.filter((name): name is string => typeof name === 'string' && roomNameFromInput(name) === name) : []
  } catch {
    return []
  }
}

/**
 * The home page: create a room (a random name is suggested) or open one by name. With `refused`, the
 * address named a room that cannot exist: the page says which and why, and suggests a usable name.
 */
export function openHomePage(root: HTMLElement, win: Window, refused?: { room: string; reason: string }): void {
  const doc = root.ownerDocument
  doc.title = 'Cotext'
  const user = loadUser(win.localStorage, new URLSearchParams())
  const main = doc.createElement('main')
  main.className = 'cx-home'
  main.innerHTML = `
    <h1>Cotext</h1>
    <p class="cx-lead">Write together. Everyone in a room sees the text and each other’s cursors, live.</p>
    <form class="cx-open" data-testid="open-room">
      <label for="cx-room-name">Room</label>
      <input id="cx-room-name" name="room" autocomplete="off" spellcheck="false" required maxlength="128" />
      <button type="submit">Open</button>
      <p class="cx-help">A new name creates the room. End it with .js, .md, .py… to pick the language.</p>
      <p class="cx-error" role="alert" hidden></p>
    </form>
    <section class="cx-recent" hidden><h2>Recent rooms</h2><ul></ul></section>
    <p class="cx-you">You appear to others as <span class="cx-you-name"></span>; change it in a room’s top bar.</p>`
  const input = main.querySelector<HTMLInputElement>('#cx-room-name')!
  input.value = (refused && roomNameFromInput(refused.room)) ?? randomRoomName()
  const you = main.querySelector<HTMLElement>('.cx-you-name')!
  you.textContent = user.name
  you.style.background = user.color
  you.style.color = textColorOn(user.color)
  const error = main.querySelector<HTMLElement>('.cx-error')!
  if (refused !== undefined) {
    error.dataset.testid = 'room-name-error'
    error.textContent = `“${refused.room}” cannot be a room name. ${refused.reason}`
    error.hidden = false
  }
  main.querySelector('form')!.addEventListener('submit', (event) => {
    event.preventDefault()
    const room = roomNameFromInput(input.value)
    if (room === null) {
      error.textContent = 'Use letters, digits, “.”, “_”, “-” and “/” for the room name.'
      error.dataset.testid = 'room-name-error'
      error.hidden = false
      return
    }
    win.location.assign(`/?room=${encodeURIComponent(room)}`)
  })
  const recent = readRecent(win.localStorage)
  if (recent.length > 0) {
    const section = main.querySelector<HTMLElement>('.cx-recent')!
    const list = section.querySelector('ul')!
    for (const room of recent) {
      const item = doc.createElement('li')
      const link = doc.createElement('a')
      link.href = `/?room=${encodeURIComponent(room)}`
      link.textContent = room
      item.appendChild(link)
      list.appendChild(item)
    }
    section.hidden = false
  }
  root.appendChild(main)
  input.select()
  input.focus()
}
