import { describe, expect, it } from 'vitest'
import { ScopeDescriptor } from '../../core/language/scope-descriptor.ts'

describe('ScopeDescriptor', () => {
  const descriptor = new ScopeDescriptor({ scopes: ['source.js', 'string.quoted.double.js'] })

  it('returns a copy of its scopes, root first', () => {
    const scopes = descriptor.getScopesArray()
    expect(scopes).toEqual(['source.js', 'string.quoted.double.js'])
    scopes.push('changed')
    expect(descriptor.getScopesArray()).toEqual(['source.js', 'string.quoted.double.js'])
  })

  it('writes TextMate scopes as a dotted selector chain', () => {
    expect(descriptor.getScopeChain()).toBe('.source.js .string.quoted.double.js')
    expect(descriptor.toString()).toBe('.source.js .string.quoted.double.js')
    expect(new ScopeDescriptor({ scopes: ['.source.js', 'Script'] }).getScopeChain()).toBe('.source.js .Script')
  })

  it('joins node-name chains without dots', () => {
    expect(new ScopeDescriptor({ scopes: ['Script', 'String'] }).getScopeChain()).toBe('Script String')
    expect(new ScopeDescriptor({ scopes: [] }).getScopeChain()).toBe('')
  })

  it('compares by scopes', () => {
    expect(descriptor.isEqual(new ScopeDescriptor({ scopes: ['source.js', 'string.quoted.double.js'] }))).toBe(true)
    expect(descriptor.isEqual(new ScopeDescriptor({ scopes: ['source.js'] }))).toBe(false)
    expect(descriptor.isEqual(new ScopeDescriptor({ scopes: ['source.js', 'string.quoted.single.js'] }))).toBe(false)
  })

  it('is built from an array or returned as is', () => {
    expect(ScopeDescriptor.fromObject(descriptor)).toBe(descriptor)
    expect(ScopeDescriptor.fromObject(['text.plain']).getScopesArray()).toEqual(['text.plain'])
  })

  it('rejects anything but an array of strings', () => {
    expect(() => new ScopeDescriptor({ scopes: 'source.js' as unknown as string[] })).toThrow(new TypeError('scopes must be an array of strings'))
    expect(() => new ScopeDescriptor({ scopes: [1] as unknown as string[] })).toThrow(TypeError)
  })
})
