/**
 * `GET /explorer/api/contract/<address>?block=<n>`: the contract of the artifacts
 * (the `--artifacts` option) whose runtime bytecode the account's code is, as of block
 * `n` (default the head: a contract that destroyed itself is named at a block it
 * lived in), read from the chain's state as eth_getCode reads it; `null` for an
 * account without code, code none of the artifacts compiled, a devnet without
 * artifacts, or a forked account whose code this devnet has not fetched.
 * `GET /explorer/api/signature/<selector>`: the functions, events and errors of all
 * the artifacts with a selector (4 bytes) or event topic (32 bytes), for call data
 * and logs of contracts the artifacts do not name (SignatureMatch, contractTypes.ts).
 */
import type { Chain } from '../../chain/chain.ts'
import type { ExplorerContract, SignatureMatch } from './contractTypes.ts'
import { ExplorerRequestError } from './errors.ts'
import { parseAccount } from './params.ts'
import type { ApiContext, ApiRoute } from './route.ts'

export const contractRoute: ApiRoute = {
  name: 'contract',
  handle: async (chain: Chain, id: string, query: URLSearchParams, { artifacts }: ApiContext): Promise<ExplorerContract | null> => {
    const address = parseAccount(id)
    const block = query.get('block')
    if (block !== null && !/^\d{1,15}$/.test(block)) throw new ExplorerRequestError('block is a block height, a whole number')
    const height = block === null ? chain.height : Math.min(Number(block), chain.height)
    if (artifacts === undefined) return null
    let code: Uint8Array
    try {
      code = chain.code(address, Math.max(height, chain.firstHeight))
    } catch {
      return null // a forked account not fetched yet: the chain answers it through JSON-RPC only
    }
    return artifacts.contractOf(code)
  },
}

export const signatureRoute: ApiRoute = {
  name: 'signature',
  handle: async (_chain: Chain, id: string, _query: URLSearchParams, { artifacts }: ApiContext): Promise<readonly SignatureMatch[]> => {
    if (!/^0x(?:[0-9a-fA-F]{8}|[0-9a-fA-F]{64})$/.test(id)) throw new ExplorerRequestError('a selector is 0x and 8 hex digits, or 64 of an event topic')
    return artifacts === undefined ? [] : artifacts.signature(id.toLowerCase())
  },
}
