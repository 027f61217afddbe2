/** The name the artifacts give the contract at an address (`source:Name`), loaded on its own so a page's other reads do not wait for it. */
import { type ComponentChild, h } from 'preact'
import type { ExplorerContract } from '../../api/contractTypes.ts'
import { api } from '../chain.ts'
import { Loaded } from '../ui.ts'

/** `address`'s contract as the artifacts name it, or a note that none does (or that the devnet has no artifacts). */
export function ContractName({ address }: { address: string }): ComponentChild {
  return h(Loaded<ExplorerContract | null>, {
    key: address,
    load: () => api<ExplorerContract>(`contract/${address}`),
    show: (contract) =>
      contract === null
        ? h('span', { class: 'muted' }, 'not among the artifacts (dualnet --explorer --artifacts <dir> names contracts)')
        : h('span', { class: 'contract-name', 'data-testid': 'contract-name' }, contract.name),
  })
}
