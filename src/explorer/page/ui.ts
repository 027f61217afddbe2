/**
 * What the explorer's pages share: loading with a key, links inside the page, field
 * tables. No JSX (`h` calls, so the page needs no compiler setting). Every value from
 * the chain is a child string, which preact sets as a text node: nothing the chain holds
 * is parsed as HTML.
 */
import { type ComponentChild, type ComponentChildren, h } from 'preact'
import { useEffect, useState } from 'preact/hooks'

/** A JSON object as the servers answer it. */
export type Json = Record<string, unknown>

/** Runs `load` when `key` changes; renders its result with `show`, a failure as text. */
export function Loaded<T>({ load, show, key }: { load: () => Promise<T>; show: (value: T) => ComponentChild; key: string }): ComponentChild {
  const [state, setState] = useState<{ key: string; value?: T; error?: string } | undefined>(undefined)
  useEffect(() => {
    let live = true
    load().then(
      (value) => live && setState({ key, value }),
      (err: unknown) => live && setState({ key, error: err instanceof Error ? err.message : 'failed' }),
    )
    return () => {
      live = false
    }
  }, [key])
  // While a new key loads, the last answer stays (no flicker on each new head).
  if (state === undefined) return h('p', { class: 'muted' }, 'Loading…')
  if (state.error !== undefined) return h('p', { class: 'error', 'data-testid': 'error' }, state.error)
  return show(state.value as T)
}

/** A link inside the page (hash routing: the server serves one document). */
export function link(route: string, text: string): ComponentChild {
  return h('a', { href: `#/${route}` }, text)
}

/** A two-column table of fields; each row carries `data-field` for the tests. */
export function fields(title: string, rows: [string, ComponentChildren][]): ComponentChild {
  return h(
    'section',
    null,
    h('h2', null, title),
    h(
      'table',
      { class: 'fields' },
      h(
        'tbody',
        null,
        rows.map(([name, value]) => h('tr', { 'data-field': name }, h('th', null, name), h('td', null, value))),
      ),
    ),
  )
}

/** Whether a transaction hash or block hash: 32 bytes in hex. */
export const HASH = /^0x[0-9a-fA-F]{64}$/
