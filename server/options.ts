import { ConfigError, parseConfig, SETTINGS } from './config.ts'
import type { Config } from './config.ts'

/** Keys of startServer's options that are not settings. */
const OTHER_OPTIONS = new Set(['logger'])

/** An option's value as its flag would be typed: lists comma-separated, like the command line's. */
function asFlagValue(key: string, value: unknown): string {
  if (typeof value === 'string') return value
  if (typeof value === 'number' || typeof value === 'boolean') return String(value)
  if (Array.isArray(value) && value.every((item) => typeof item === 'string')) return value.join(',')
  throw new ConfigError(`option ${key} must be a string, a number, a boolean or a list of strings, got ${JSON.stringify(value)}`)
}

/**
 * startServer's options -> the server's settings. The options go through the command line's own
 * parser (config.ts) as flags, so every setting there is an option here with the same checks and
 * defaults, including checks across settings; its messages name the option instead of the flag.
 * A missing option takes the default (never the environment); `null` leaves a setting that may be
 * unset (authSecret) unset.
 */
export function settingsFromOptions(options: object): Config {
  const known = new Set<string>(SETTINGS.map((setting) => setting.key))
  for (const key of Object.keys(options)) {
    if (!known.has(key) && !OTHER_OPTIONS.has(key)) throw new ConfigError(`unknown option ${JSON.stringify(key)}; the options are ${[...known, ...OTHER_OPTIONS].join(', ')}`)
  }
  const given = options as Record<string, unknown>
  const argv: string[] = []
  for (const setting of SETTINGS) {
    const value = given[setting.key]
    if (value === undefined || (value === null && setting.fallback === null)) continue
    argv.push(`--${setting.flag}=${asFlagValue(setting.key, value)}`)
  }
  try {
    const result = parseConfig(argv, {})
    if (result.help) throw new Error('unreachable: --help is not an option')
    return result.config
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error
    let message = error.message
    for (const setting of SETTINGS) message = message.replace(new RegExp(`--${setting.flag}(?![\\w-])`, 'g'), `option ${setting.key}`)
    throw new ConfigError(message)
  }
}
