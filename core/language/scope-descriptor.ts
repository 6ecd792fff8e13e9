/**
 * The scopes at a position, outermost first, as Atom's `ScopeDescriptor`: the root scope ('source.js') and then
 * every scope down to the token ('string.quoted.double.js'), or, for a syntax-tree descriptor, node names.
 */
export class ScopeDescriptor {
  private readonly scopes: readonly string[]

  constructor({ scopes }: { scopes: readonly string[] }) {
    if (!Array.isArray(scopes) || scopes.some((scope) => typeof scope !== 'string')) {
      throw new TypeError('scopes must be an array of strings')
    }
    this.scopes = Object.freeze([...scopes])
  }

  /** A descriptor as is, or one built from an array of scope names. */
  static fromObject(scopes: ScopeDescriptor | readonly string[]): ScopeDescriptor {
    return scopes instanceof ScopeDescriptor ? scopes : new ScopeDescriptor({ scopes })
  }

  /** A fresh copy of the scope names, root first. */
  getScopesArray(): string[] {
    return [...this.scopes]
  }

  /**
   * The scopes as a CSS-like selector chain ('.source.js .string.quoted.double.js'). As in Atom, names are
   * dotted only when the root scope is a TextMate-style name; node-name chains are joined as they are.
   */
  getScopeChain(): string {
    if (this.scopes.length === 0 || !this.scopes[0]!.includes('.')) return this.scopes.join(' ')
    return this.scopes.map((scope) => (scope.startsWith('.') ? scope : `.${scope}`)).join(' ')
  }

  toString(): string {
    return this.getScopeChain()
  }

  isEqual(other: ScopeDescriptor): boolean {
    if (!(other instanceof ScopeDescriptor)) return false
    if (other.scopes.length !== this.scopes.length) return false
    return this.scopes.every((scope, i) => scope === other.scopes[i])
  }
}
