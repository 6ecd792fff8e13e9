import { describe, expect, it } from 'vitest'
import { connectionDetailFor, connectionStateFor, type ConnectionFacts } from '../../web/app/connection.ts'

const facts = (change: Partial<ConnectionFacts>): ConnectionFacts => ({ status: 'connecting', online: true, refusal: null, failures: 0, ...change })

describe('the connection state', () => {
  it('is connected while the provider is, whatever else', () => {
    expect(connectionStateFor(facts({ status: 'connected' }))).toBe('connected')
    expect(connectionStateFor(facts({ status: 'connected', online: false }))).toBe('connected')
  })

  it('is connecting during the first attempts while the browser is online', () => {
    expect(connectionStateFor(facts({ status: 'connecting' }))).toBe('connecting')
    expect(connectionStateFor(facts({ status: 'disconnected', failures: 1 }))).toBe('connecting')
  })

  it('is offline once the server could not be reached twice in a row (the provider keeps retrying)', () => {
    expect(connectionStateFor(facts({ status: 'connecting', failures: 2 }))).toBe('offline')
    expect(connectionStateFor(facts({ status: 'connected', failures: 2 }))).toBe('connected')
    expect(connectionDetailFor(facts({ failures: 5 }), false)).toBe(
      'the server cannot be reached; retrying; edits are kept here and sent on reconnect',
    )
  })

  it('is offline when the browser is offline or the server refused for good', () => {
    expect(connectionStateFor(facts({ online: false }))).toBe('offline')
    expect(connectionStateFor(facts({ status: 'disconnected', refusal: '4401 token expired' }))).toBe('offline')
  })

  it('explains itself', () => {
    expect(connectionDetailFor(facts({ status: 'connected' }), true)).toBe('connected; in sync with the server')
    expect(connectionDetailFor(facts({ refusal: '4403 token is for another room' }), false)).toBe(
      'the server refused the connection: 4403 token is for another room',
    )
    expect(connectionDetailFor(facts({ online: false }), false)).toBe('the browser is offline; edits are kept here and sent on reconnect')
  })
})
