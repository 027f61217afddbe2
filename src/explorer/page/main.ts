/**
 * The explorer page's entry: reads config.json, then renders the route in the URL's
 * hash (`#/block/7`, `#/tx/0x…`, `#/address/A…`) under a search bar.
 */
import { type ComponentChild, h, render } from 'preact'
import { useEffect, useState } from 'preact/hooks'
import type { Endpoints } from './chain.ts'
import { link } from './ui.ts'
import { Account } from './views/account.ts'
import { Block } from './views/block.ts'
import { Home } from './views/home.ts'
import { Find, searchRoute } from './views/search.ts'
import { Transaction } from './views/transaction.ts'

function route(): string[] {
  return location.hash.replace(/^#\/?/, '').split('/').map(decodeURIComponent)
}

function Page({ route: [kind = '', id = ''], endpoints }: { route: string[]; endpoints: Endpoints }): ComponentChild {
  if (kind === 'block') return h(Block, { id, endpoints })
  if (kind === 'tx') return h(Transaction, { hash: id, endpoints })
  if (kind === 'address') return h(Account, { id, endpoints })
  if (kind === 'find') return h(Find, { hash: id, endpoints })
  return h(Home, { endpoints })
}

function App({ endpoints }: { endpoints: Endpoints }): ComponentChild {
  const [current, setCurrent] = useState(route())
  const [error, setError] = useState('')
  useEffect(() => {
    const onHash = () => setCurrent(route())
    addEventListener('hashchange', onHash)
    return () => removeEventListener('hashchange', onHash)
  }, [])
  const onSubmit = (event: SubmitEvent) => {
    event.preventDefault()
    const input = (event.target as HTMLFormElement).elements.namedItem('q') as HTMLInputElement
    const target = searchRoute(input.value)
    if (typeof target === 'string') {
      setError('')
      location.hash = `#/${target}`
    } else setError(target.error)
  }
  return h(
    'div',
    null,
    h(
      'header',
      null,
      link('', 'dualnet explorer'),
      h('form', { onSubmit, role: 'search' }, h('input', { name: 'q', placeholder: 'block, tx hash, 0x or Base58 address', 'aria-label': 'search' }), h('button', { type: 'submit' }, 'Search')),
    ),
    error === '' ? null : h('p', { class: 'error' }, error),
    h(Page, { route: current, endpoints, key: current.join('/') }),
  )
}

const root = document.getElementById('app')
if (root !== null) {
  fetch('/explorer/config.json')
    .then((r) => r.json() as Promise<Endpoints>)
    .then(
      (endpoints) => {
        root.textContent = ''
        render(h(App, { endpoints }), root)
      },
      (err: unknown) => {
        root.textContent = `explorer: ${err instanceof Error ? err.message : 'no config'}`
      },
    )
}
