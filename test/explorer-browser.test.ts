/**
 * The explorer page (issue 37) in Debian's chromium, driven with playwright-core against
 * an in-process devnet that a script fills: a token deployed and transferred (ERC20
 * Transfer), a transaction that reverts with a reason, and a native transfer signed with
 * ontology-ts-sdk. Each page must show the chain's values; each is photographed into
 * docs/explorer/ for docs/explorer.md. Runs in `npm run test:tools`: skipped, saying
 * why, without chromium outside CI; CI installs it (.ci/run).
 */
import { existsSync, mkdirSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { Interface } from 'ethers'
import { type Browser, chromium, type Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Reverter, Token } from '../fixtures/index.ts'
import { toBase58 } from '../src/native/address.ts'
import { fromHex } from '../src/util/hex.ts'
import { createDevnet, type Devnet, type DevnetUrls } from '../src/index.ts'
import { sendNativeTransfer } from './support.ts'

/** Debian's chromium (`DUALNET_CHROMIUM` to name another build of it); never a downloaded browser. */
const CHROMIUM = process.env.DUALNET_CHROMIUM ?? '/usr/bin/chromium'
const HAVE_CHROMIUM = existsSync(CHROMIUM)
const IN_CI = process.env.CI !== undefined
const SHOTS = fileURLToPath(new URL('../docs/explorer/', import.meta.url))
/** How long a page may take to show its text on a busy 2-core machine. */
const PAGE_MS = 60_000

/** What the fill script made. */
interface Filled {
  from: string
  to: string
  token: string
  transfer: string
  transferBlock: number
  revert: string
  native: string
}

/** Sends `tx` from the first dev account (automine) and resolves to its hash and block. */
async function send(devnet: Devnet, tx: Record<string, string>): Promise<{ hash: string; block: number; contract: string | null }> {
  const hash = (await devnet.rpc('eth_sendTransaction', [tx])) as string
  const receipt = (await devnet.rpc('eth_getTransactionReceipt', [hash])) as { blockNumber: string; contractAddress: string | null }
  return { hash, block: Number(receipt.blockNumber), contract: receipt.contractAddress }
}

async function fill(devnet: Devnet): Promise<Filled> {
  const [from, to] = (await devnet.rpc('eth_accounts')) as [string, string]
  const token = new Interface(Token.abi as never)
  const deployed = await send(devnet, { from, data: Token.bytecode + token.encodeDeploy(['Explorer Token', 'EXT', 10n ** 24n]).slice(2) })
  const transfer = await send(devnet, { from, to: deployed.contract!, data: token.encodeFunctionData('transfer', [to, 1234n]) })
  const reverter = await send(devnet, { from, data: Reverter.bytecode })
  const revert = await send(devnet, { from, to: reverter.contract!, gas: '0x30000', data: new Interface(Reverter.abi as never).encodeFunctionData('revertWithReason', []) })
  const native = await sendNativeTransfer(devnet)
  return { from, to, token: deployed.contract!, transfer: transfer.hash, transferBlock: transfer.block, revert: revert.hash, native }
}

const MISSING = `no chromium at ${CHROMIUM}; .ci/run installs Debian's package (apt-get install chromium), or set DUALNET_CHROMIUM`

describe.runIf(HAVE_CHROMIUM || IN_CI)(HAVE_CHROMIUM ? "explorer page in Debian's chromium" : `explorer page in chromium (failing in CI: ${MISSING})`, { timeout: 2 * PAGE_MS }, () => {
  let devnet: Devnet
  let urls: DevnetUrls
  let chain: Filled
  let browser: Browser
  let page: Page
  const pageErrors: string[] = []

  beforeAll(async () => {
    if (!HAVE_CHROMIUM) throw new Error(`CI must run the explorer browser test: ${MISSING}`)
    devnet = await createDevnet()
    urls = await devnet.listen({ explorer: true, rest: true })
    chain = await fill(devnet)
    // Root (as in CI containers) cannot use chromium's sandbox; a container's /dev/shm is often 64 MB.
    const args = ['--disable-dev-shm-usage', ...(process.getuid?.() === 0 ? ['--no-sandbox'] : [])]
    browser = await chromium.launch({ executablePath: CHROMIUM, args, timeout: PAGE_MS })
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
    context.setDefaultTimeout(PAGE_MS)
    // Loopback only: the page must need nothing from elsewhere.
    await context.route(/^(?!(http|ws):\/\/127\.0\.0\.1[:/])/, (route) => route.abort())
    page = await context.newPage()
    page.on('pageerror', (error) => pageErrors.push(error.message))
    // A CSP violation is reported on the console: the page must cause none.
    page.on('console', (message) => {
      if (message.type() === 'error') pageErrors.push(message.text())
    })
    mkdirSync(SHOTS, { recursive: true })
  }, 600_000)

  afterAll(async () => {
    await browser?.close()
    await devnet?.close()
  })

  /** Resolves once the page's text holds every one of `texts` (failing with the ones still missing). */
  const showsText = async (...texts: string[]) => {
    const missing = async () => {
      const text = await page.locator('body').innerText()
      return texts.filter((wanted) => !text.includes(wanted))
    }
    await expect.poll(missing, { timeout: PAGE_MS, interval: 250 }).toEqual([])
  }
  const open = (route: string) => page.goto(`${urls.explorerUrl}#/${route}`)
  const shot = (name: string) => page.screenshot({ path: `${SHOTS}${name}.png`, fullPage: true })

  it('home: chain id, hardfork, mining mode and the latest blocks, and a block another client mines appears', async () => {
    await open('')
    const head = Number(await devnet.rpc('eth_blockNumber'))
    await showsText('Chain id', '12345', 'Istanbul', 'automine', `#${head}`, chain.transfer)
    await shot('home')
    // Mined through JSON-RPC, not by the page: newHeads brings it.
    await devnet.rpc('evm_mine')
    await showsText(`#${head + 1}`)
    expect(pageErrors).toEqual([])
  })

  it('controls (on loopback): mine a block, snapshot and revert, move time', async () => {
    await open('')
    const head = Number(await devnet.rpc('eth_blockNumber'))
    await showsText('Controls', 'Time offset', `#${head}`)
    await page.getByRole('button', { name: 'Snapshot', exact: true }).click()
    await showsText('snapshot: 0x')
    await page.getByRole('button', { name: 'Mine a block', exact: true }).click()
    await showsText(`#${head + 1}`)
    expect(Number(await devnet.rpc('eth_blockNumber'))).toBe(head + 1)
    await page.getByRole('button', { name: /^Revert to 0x/ }).click()
    await showsText('reverted: to snapshot')
    expect(Number(await devnet.rpc('eth_blockNumber'))).toBe(head)
    const before = Number(await devnet.rpc('evm_increaseTime', [0]))
    await page.getByRole('button', { name: '+1 hour' }).click()
    await showsText(`time moved: offset ${before + 3600} s`)
    await devnet.rpc('evm_mine')
    await showsText(`${before + 3600} s`, `#${head + 1}`)
    await shot('controls')
    expect(pageErrors).toEqual([])
  })

  it('block: the EVM fields beside the native header, and its transactions of both kinds', async () => {
    await open(`block/${chain.transferBlock}`)
    const block = (await devnet.rpc('eth_getBlockByNumber', [`0x${chain.transferBlock.toString(16)}`, false])) as { hash: string }
    const native = await devnet.rest.get(`/api/v1/block/details/height/${chain.transferBlock}`)
    const header = (native.Result as { Header: { NextBookkeeper: string; TransactionsRoot: string } }).Header
    await showsText(`Block ${chain.transferBlock}`, block.hash, 'NextBookkeeper', header.NextBookkeeper, header.TransactionsRoot, chain.transfer)
    await shot('block')
    expect(pageErrors).toEqual([])
  })

  it('transaction: the receipt, the decoded Transfer, the call tree', async () => {
    await open(`tx/${chain.transfer}`)
    await showsText('success', `Transfer(from ${chain.from}, to ${chain.to.toLowerCase()}, value 1234)`, 'Call tree', `CALL ${chain.from}`)
    await shot('transaction')
    expect(pageErrors).toEqual([])
  })

  it('a reverted transaction shows its revert reason', async () => {
    await open(`tx/${chain.revert}`)
    await showsText('reverted', 'Reverter: always fails')
    await shot('transaction-revert')
  })

  it('a native transaction shows its payload and its notify event', async () => {
    await open(`tx/0x${chain.native}`)
    const sender = devnet.nativeAccounts[0]!.base58
    await showsText('Native transaction', 'Payer', '(invoke)', 'success (1)', 'Notify events', `main token: transfer, ${sender}, ${sender}, 1`)
    await shot('transaction-native')
  })

  it('search by a Base58 address finds the 0x account, with main and gas balances in both units', async () => {
    await open('')
    const base58 = toBase58(fromHex(chain.from))
    await page.getByLabel('search').fill(base58)
    await page.getByRole('button', { name: 'Search' }).click()
    const balances = (await devnet.rest.get(`/api/v1/balancev2/${base58}`)).Result as { main: string; gas: string }
    await showsText('Account', chain.from, base58, `(${balances.main} base units)`, `(${balances.gas} base units)`, chain.transfer)
    await shot('account')
    // A block height searched opens that block.
    await page.getByLabel('search').fill(String(chain.transferBlock))
    await page.getByRole('button', { name: 'Search' }).click()
    await showsText(`Block ${chain.transferBlock}`)
    expect(pageErrors).toEqual([])
  })
})
