/**
 * Helpers of the REST fork-history tests (docs/fork.md "History before the fork"): a
 * remote dualnet with history whose head is a few empty blocks above its last
 * transaction (so the fork's BlockRoot frontier comes from a block below the fork
 * block), every REST history path of it, and raw REST over HTTP. Not a test file itself.
 */
import { historyRemote, type HistoryRemote } from './fork-support.ts'

/** The REST form (byte-reversed, no 0x) of a JSON-RPC hash. */
export function restForm(hash: unknown): string {
  return Buffer.from(String(hash).slice(2), 'hex').reverse().toString('hex')
}

/** The body of a node's HTTP answer to `GET path`, as text: what byte-equal compares. */
export async function rawRest(base: string, path: string): Promise<string> {
  return (await fetch(`${base}${path}`)).text()
}

/** The envelope of `GET path`, parsed. */
export async function restEnvelope<T = unknown>(base: string, path: string): Promise<{ Error: number; Result: T; Desc: string; Action: string }> {
  return JSON.parse(await rawRest(base, path))
}

/** A {@link historyRemote} with three empty blocks on top: the fork block is its head, 3 blocks above its last transaction. */
export interface RestHistoryRemote extends HistoryRemote {
  /** The fork block (the remote's head when the fork starts). */
  head: number
  /** REST-form hashes of every transaction at or below the head, by block. */
  restTxs: Record<number, string[]>
}

/** Builds a {@link RestHistoryRemote}. */
export async function restHistoryRemote(): Promise<RestHistoryRemote> {
  const h = await historyRemote()
  await h.remote.mine(3)
  const head = (await restEnvelope<number>(h.restUrl, '/api/v1/block/height')).Result
  const restTxs: Record<number, string[]> = {}
  for (let n = 0; n <= head; n++) restTxs[n] = (await restEnvelope<{ Transactions: string[] }>(h.restUrl, `/api/v1/block/transactions/height/${n}`)).Result.Transactions
  return { ...h, head, restTxs }
}

/** Every REST history path of `r` at or below its head, and a few unknown ones. */
export function historyPaths(r: RestHistoryRemote, blockHashes: readonly string[]): string[] {
  const unknown = '5a'.repeat(32)
  const paths: string[] = []
  for (let n = 0; n <= r.head; n++) {
    paths.push(
      `/api/v1/block/details/height/${n}`,
      `/api/v1/block/details/height/${n}?raw=1`,
      `/api/v1/block/details/hash/${blockHashes[n]}`,
      `/api/v1/block/details/hash/${blockHashes[n]}?raw=1`,
      `/api/v1/block/hash/${n}`,
      `/api/v1/block/transactions/height/${n}`,
      `/api/v1/smartcode/event/transactions/${n}`,
    )
    for (const tx of r.restTxs[n]!) {
      paths.push(`/api/v1/transaction/${tx}`, `/api/v1/transaction/${tx}?raw=1`, `/api/v1/block/height/txhash/${tx}`, `/api/v1/smartcode/event/txhash/${tx}`, `/api/v1/merkleproof/${tx}`)
    }
  }
  for (const route of ['transaction', 'block/height/txhash', 'smartcode/event/txhash', 'merkleproof', 'block/details/hash']) paths.push(`/api/v1/${route}/${unknown}`)
  return paths
}
