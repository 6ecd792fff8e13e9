/** Calls the server's REST API (server/rest.ts) and resolves with the status and the JSON body. */
export async function api(
  baseUrl: string,
  path: string,
  options: { method?: 'GET' | 'POST'; token?: string; tokenInQuery?: boolean; body?: unknown } = {},
): Promise<{ status: number; body: Record<string, unknown> }> {
  const headers: Record<string, string> = {}
  let url = `${baseUrl}${path}`
  if (options.token !== undefined) {
    if (options.tokenInQuery === true) url += `${url.includes('?') ? '&' : '?'}token=${encodeURIComponent(options.token)}`
    else headers.authorization = `Bearer ${options.token}`
  }
  if (options.body !== undefined) headers['content-type'] = 'application/json'
  const response = await fetch(url, { method: options.method ?? 'GET', headers, body: options.body === undefined ? undefined : typeof options.body === 'string' ? options.body : JSON.stringify(options.body) })
  const text = await response.text()
  return { status: response.status, body: text === '' ? {} : (JSON.parse(text) as Record<string, unknown>) }
}
