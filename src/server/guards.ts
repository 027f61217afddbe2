/**
 * What keeps web pages from driving the dev accounts: the Host check of both servers
 * (DNS rebinding) and the Origin check of WebSocket upgrades (browsers apply no CORS
 * to WebSockets), with go-ethereum's rules.
 */
import { isIP } from 'node:net'

/** Host names the servers answer (`'*'`: any); IP addresses are always answered. */
export type VirtualHosts = '*' | ReadonlySet<string>

/** go-ethereum's default `--http.vhosts` (node/defaults.go): `localhost`. */
export const DEFAULT_VHOSTS: readonly string[] = ['localhost']

/**
 * The `vhosts` listen option as a set: `'*'`, one name or a list (lower-cased), or the
 * default {@link DEFAULT_VHOSTS}. Throws `TypeError` naming the option for anything else.
 */
export function virtualHosts(option: string | readonly string[] | undefined): VirtualHosts {
  const names = option === undefined ? DEFAULT_VHOSTS : typeof option === 'string' ? [option] : option
  if (!Array.isArray(names) || names.length === 0 || names.some((n) => typeof n !== 'string' || n.trim() === '')) {
    throw new TypeError(`listen option vhosts must be '*', a host name or a non-empty list of them (got ${JSON.stringify(option)})`)
  }
  return names.includes('*') ? '*' : new Set(names.map((n) => n.trim().toLowerCase()))
}

/**
 * Why the request's `Host` header is refused, or `undefined` when it is served: as
 * go-ethereum's virtualHostHandler (node/rpcstack.go), a request without Host is
 * served (a browser always sends one), the port is ignored, an IP address is served
 * (DNS rebinding needs a name), and a name must be in `vhosts` (or `vhosts` is `'*'`).
 * Two liberties: names compare case-insensitively, and a bracketed IPv6 address
 * without a port (`[::1]`) counts as an address.
 */
export function hostRefusal(host: string | undefined, vhosts: VirtualHosts): string | undefined {
  if (host === undefined || host === '') return undefined
  let name = host
  if (name.startsWith('[')) name = name.slice(1, name.indexOf(']') === -1 ? undefined : name.indexOf(']'))
  // host:port; more than one colon is an IPv6 address without brackets (net.SplitHostPort fails, the whole is kept).
  else if (name.indexOf(':') !== -1 && name.indexOf(':') === name.lastIndexOf(':')) name = name.slice(0, name.indexOf(':'))
  if (isIP(name) !== 0 || vhosts === '*' || vhosts.has(name.toLowerCase())) return undefined
  return `invalid host specified: ${host} (the server answers IP addresses and ${[...vhosts].join(', ')}; option vhosts)`
}

/**
 * The reason both servers give an HTTP/1.1 request without a Host header (RFC 9112
 * §3.2 requires a 400), in Go's net/http words. Node's own check, which answers an
 * empty 400 outside either server's convention, is turned off (`requireHostHeader`).
 */
export const MISSING_HOST = 'missing required Host header'

/**
 * Why a WebSocket upgrade's `Origin` header is refused, or `undefined` when it is
 * accepted, against the JSON-RPC server's CORS origins: as go-ethereum's
 * wsHandshakeValidator (rpc/websocket.go), an upgrade without Origin is accepted (not a
 * browser: browsers always send one), `'*'` accepts any, and otherwise the origin
 * must be one of them (case-insensitive); `false` (no CORS) accepts no browser at all.
 */
export function originRefusal(origin: string | undefined, cors: string | readonly string[] | false): string | undefined {
  if (origin === undefined) return undefined
  const allowed = cors === false ? [] : typeof cors === 'string' ? [cors] : cors
  if (allowed.includes('*') || allowed.some((o) => o.toLowerCase() === origin.toLowerCase())) return undefined
  const list = allowed.length === 0 ? 'none (cors is off)' : allowed.join(', ')
  return `origin not allowed: ${origin} (WebSocket origins are the CORS origins: ${list}; option cors)`
}
