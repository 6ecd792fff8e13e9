import { ConfigError, SETTINGS } from './config.ts'
import type { Config } from './config.ts'

/** Keys of startServer's options that are not settings. */
const OTHER_OPTIONS = new Set(['logger'])

/**
 * startServer's options -> the server's settings, through the same table and the same checks as the
 * command line (config.ts), so a setting added there is an option here too. A missing option takes
 * the default; `null` is accepted only where a setting may be unset (authSecret).
 */
export function settingsFromOptions(options: object): Config {
  const known = new Set<string>(SETTINGS.map((setting) => setting.key))
  for (const key of Object.keys(options)) {
    if (!known.has(key) && !OTHER_OPTIONS.has(key)) throw new ConfigError(`unknown option ${JSON.stringify(key)}; the options are ${[...known, ...OTHER_OPTIONS].join(', ')}`)
  }
  const given = options as Record<string, unknown>
  const config: Record<string, unknown> = {}
  for (const setting of SETTINGS) {
    const value = given[setting.key]
    const source = `option ${setting.key}`
    if (value === undefined) config[setting.key] = setting.fallback === null ? null : setting.parse(setting.fallback, source)
    else if (value === null && setting.fallback === null) config[setting.key] = null
    else if (typeof value === 'string' || typeof value === 'number') config[setting.key] = setting.parse(String(value), source)
    else throw new ConfigError(`${source} must be a string or a number, got ${JSON.stringify(value)}`)
  }
  return config as unknown as Config
}
