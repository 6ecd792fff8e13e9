/**
 * A package-lock.json for the test's consumer project, cut out of the repository's own lock: the
 * consumer depends on the packed cotext tarball plus packages the repository also installs, so every
 * package it needs is already pinned (version and integrity) there, and `npm ci --offline` can install
 * them from the npm cache that installing the repository filled, without asking the registry anything.
 * The cut keeps each package at the path it has in the repository's tree, which stays a valid tree:
 * every dependency of a kept package resolves to the same path as before.
 */

interface LockEntry {
  version?: string
  dependencies?: Record<string, string>
  optionalDependencies?: Record<string, string>
  peerDependencies?: Record<string, string>
  peerDependenciesMeta?: Record<string, { optional?: boolean }>
  [field: string]: unknown
}

export interface Lockfile {
  name?: string
  lockfileVersion: number
  packages: Record<string, LockEntry>
}

export interface ConsumerManifest {
  name: string
  dependencies: Record<string, string>
}

/** The registry's address of a package's tarball (`@scope/name/-/name-1.0.0.tgz`). */
function tarballUrl(registry: string, name: string, version: string): string {
  const base = registry.endsWith('/') ? registry : `${registry}/`
  return `${base}${name}/-/${name.slice(name.indexOf('/') + 1)}-${version}.tgz`
}

/** Where Node would find `name` when required from the package at `from` ('' is the root). */
function resolveIn(packages: Lockfile['packages'], from: string, name: string): string | null {
  let dir = from
  for (;;) {
    const candidate = `${dir === '' ? '' : `${dir}/`}node_modules/${name}`
    if (packages[candidate] !== undefined) return candidate
    if (dir === '') return null
    const parent = dir.lastIndexOf('/node_modules/')
    dir = parent === -1 ? '' : dir.slice(0, parent)
  }
}

/** What a package needs installed: [name, optional]; optional ones may be missing (other platforms). */
function needs(entry: LockEntry): Array<[string, boolean]> {
  const peers = Object.keys(entry.peerDependencies ?? {}).filter((name) => entry.peerDependenciesMeta?.[name]?.optional !== true)
  return [
    ...[...Object.keys(entry.dependencies ?? {}), ...peers].map((name): [string, boolean] => [name, false]),
    ...Object.keys(entry.optionalDependencies ?? {}).map((name): [string, boolean] => [name, true]),
  ]
}

/**
 * `consumer` depends on `cotext` (given as `cotextSpec`, a file: path to the tarball, whose manifest
 * is `cotext`) and on packages of the repository's tree, which come from `registry` (npm's
 * `registry` setting). Throws if one of them is not in `repo`.
 */
export function consumerLock(repo: Lockfile, consumer: ConsumerManifest, cotext: LockEntry & { name: string }, cotextSpec: string, registry: string): Lockfile {
  const packages: Lockfile['packages'] = {
    '': { name: consumer.name, dependencies: consumer.dependencies },
    'node_modules/cotext': {
      version: cotext.version,
      resolved: cotextSpec,
      ...(cotext.dependencies === undefined ? {} : { dependencies: cotext.dependencies }),
      ...(cotext.peerDependencies === undefined ? {} : { peerDependencies: cotext.peerDependencies }),
      ...(cotext.bin === undefined ? {} : { bin: cotext.bin }),
      ...(cotext.engines === undefined ? {} : { engines: cotext.engines }),
    },
  }
  const pending: Array<[from: string, name: string, optional: boolean]> = Object.keys(consumer.dependencies)
    .filter((name) => name !== 'cotext')
    .map((name) => ['', name, false])
  for (const [name, optional] of needs(cotext)) pending.push(['node_modules/cotext', name, optional])

  while (pending.length > 0) {
    const [from, name, optional] = pending.pop()!
    // cotext's own dependencies are the repository's, hoisted to its top level.
    const path = resolveIn(repo.packages, from === 'node_modules/cotext' ? '' : from, name)
    if (path === null) {
      if (optional) continue
      throw new Error(`${name} (needed by ${from || 'the consumer'}) is not in the repository's package-lock.json`)
    }
    if (packages[path] !== undefined) continue
    const { dev: _dev, devOptional: _devOptional, peer: _peer, ...entry } = repo.packages[path]!
    // With the tarball's address npm reads it from the cache by integrity; without, it asks the
    // registry for the package's metadata first.
    packages[path] = { ...entry, resolved: entry.resolved ?? tarballUrl(registry, path.slice(path.lastIndexOf('node_modules/') + 13), entry.version!) }
    for (const [dependency, optionalDependency] of needs(entry)) pending.push([path, dependency, optionalDependency])
  }
  return { name: consumer.name, lockfileVersion: 3, packages }
}
