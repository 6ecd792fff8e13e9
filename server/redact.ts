/**
 * A request URL as it may be logged: the path alone, cut to a length a log line can carry, with
 * the query replaced by `?…`. The query is where the access token travels, and a token name can
 * be percent-encoded (`?%74oken=` reads as `token`), so the query is dropped whole rather than
 * searched; this works on URLs too broken to parse.
 */
export function redactUrl(raw: string | undefined, maxLength = 200): string {
  if (raw === undefined) return ''
  const query = raw.search(/[?#]/)
  const path = query === -1 ? raw : raw.slice(0, query)
  const cut = path.length > maxLength ? `${path.slice(0, maxLength)}…` : path
  return query === -1 ? cut : `${cut}?…`
}
