/**
 * The explorer page (issue 37) in Debian's chromium, driven with playwright-core against
 * an in-process devnet that a script fills: a token deployed and transferred (ERC20
 * Transfer), a transaction that reverts with a reason, and a native transfer signed with
 * ontology-ts-sdk; the fixtures' artifacts name the contracts and decode calls, events
 * and a custom error. Each page must show the chain's values; each is photographed into
 * docs/explorer/ for docs/explorer.md. Runs in `npm run test:tools`: skipped, saying
 * why, without chromium outside CI; CI installs it (.ci/run).
 */
import { existsSync, mkdirSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { Interface } from 'ethers'
import { type Browser, chromium, type Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Reverter, Token, TraceCallee, TraceCaller } from '../fixtures/index.ts'
import { toBase58 } from '../src/native/address.ts'
import { fromHex } from '../src/util/hex.ts'
import { createDevnet, type Devnet, type DevnetUrls } from '../src/index.ts'
import { nativeApprove, sendNative } from './persistence-support.ts'
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
  /** A native approve of 7 main tokens from native dev account 0 to 1 (REST hash). */
  approve: string
  /** TraceCaller.run with 777 wei, which it passes on to TraceCallee.ping: an internal value transfer. */
  internal: string
  callee: string
  /** TraceCaller, which the artifacts do not name (its immutable differs and Hardhat's per-contract artifacts do not locate it). */
  forwarder: string
  /** Reverter.revertWithCustomError(42): reverts Unauthorized(from, 42). */
  customError: string
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
  const callee = await send(devnet, { from, data: TraceCallee.bytecode })
  const caller = new Interface(TraceCaller.abi as never)
  const forwarder = await send(devnet, { from, data: TraceCaller.bytecode + caller.encodeDeploy([callee.contract!]).slice(2) })
  const internal = await send(devnet, { from, to: forwarder.contract!, value: '0x309', gas: '0x40000', data: caller.encodeFunctionData('run', []) })
  const customError = await send(devnet, { from, to: reverter.contract!, gas: '0x30000', data: new Interface(Reverter.abi as never).encodeFunctionData('revertWithCustomError', [42n]) })
  const native = await sendNativeTransfer(devnet)
  const approve = await sendNative(devnet, nativeApprove(devnet, 0, 1, 7n))
  return {
    from,
    to,
    token: deployed.contract!,
    transfer: transfer.hash,
    transferBlock: transfer.block,
    revert: revert.hash,
    native,
    approve,
    internal: internal.hash,
    callee: callee.contract!,
    forwarder: forwarder.contract!,
    customError: customError.hash,
  }
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
    urls = await devnet.listen({ explorer: { artifacts: 'fixtures/artifacts' }, rest: true })
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

  it('transaction: the receipt, the contract named, the call and the Transfer decoded by the artifacts, the call tree', async () => {
    await open(`tx/${chain.transfer}`)
    await showsText(
      'success',
      `${chain.token.toLowerCase()} contracts/Token.sol:Token`,
      `transfer(to ${chain.to.toLowerCase()}, amount 1234)`,
      `Transfer(from ${chain.from.toLowerCase()}, to ${chain.to.toLowerCase()}, value 1234)`,
      'Call tree',
      `CALL ${chain.from}`,
    )
    await shot('transaction')
    expect(pageErrors).toEqual([])
  })

  it('an internal value transfer shows in the call tree, its frames and custom events decoded by the artifacts', async () => {
    await open(`tx/${chain.internal}`)
    await showsText(
      'success',
      'Call tree',
      `${chain.callee.toLowerCase()} contracts/TraceCalls.sol:TraceCallee ping(x 21) → 42 value 777`,
      // The emitter is named: its own ABI decodes the event.
      `Pinged(from ${chain.forwarder.toLowerCase()}, value 777)`,
      // TraceCaller's code is none of the artifacts': its call and event are found by their selectors.
      'run() (by its selector, as declared in contracts/TraceCalls.sol:TraceCaller) → (result 42)',
      'Done(result 42) (by its selector, as declared in contracts/TraceCalls.sol:TraceCaller)',
    )
    await shot('transaction-decoded')
    expect(pageErrors).toEqual([])
  })

  it('a transaction reverted with a custom error shows the error decoded by the artifacts', async () => {
    await open(`tx/${chain.customError}`)
    await showsText('reverted', 'contracts/Reverter.sol:Reverter', 'revertWithCustomError(code 42)', `Unauthorized(caller ${chain.from.toLowerCase()}, code 42)`)
    await shot('transaction-custom-error')
    expect(pageErrors).toEqual([])
  })

  it('a reverted transaction shows its revert reason', async () => {
    await open(`tx/${chain.revert}`)
    await showsText('reverted', 'Reverter: always fails')
    await shot('transaction-revert')
  })

  it('a native transaction shows its payload decoded, in whole tokens and base units, and its notify event', async () => {
    await open(`tx/0x${chain.native}`)
    const sender = devnet.nativeAccounts[0]!.base58
    await showsText(
      'Native transaction',
      'Payer',
      '(invoke)',
      'success (1)',
      'Transfer (main token, transfer)',
      `${sender} → ${sender}: 1 main (1000000000 base units)`,
      'Notify events',
      `main token: transfer, ${sender}, ${sender}, 1`,
    )
    await shot('transaction-native')
    // The same transaction by JSON-RPC's byte order (as an address's list links EVM hashes).
    await open(`tx/0x${Buffer.from(chain.native, 'hex').reverse().toString('hex')}`)
    await showsText('Native transaction', `Hash (REST)${'\t'}${chain.native}`)
    await open(`tx/0x${chain.approve}`)
    await showsText('Approve (main token, approve)', `${sender} may spend`)
    expect(pageErrors).toEqual([])
  })

  it('a native account: its allowances, unbound gas, and its transactions of both kinds a page at a time', async () => {
    const [alice, bob] = devnet.nativeAccounts
    // 26 more EVM transactions from alice's 0x address: two pages of 25.
    await devnet.rpc('hardhat_setBalance', [alice!.address, '0x56bc75e2d63100000'])
    await devnet.rpc('hardhat_impersonateAccount', [alice!.address])
    for (let i = 0; i < 26; i++) await send(devnet, { from: alice!.address, to: `0x${'00'.repeat(19)}ee`, value: '0x1' })
    await open(`address/${alice!.base58}`)
    const total = (await devnet.rest.get(`/api/v1/unboundgas/${alice!.base58}`)).Result as string
    await showsText('Allowances (native tokens)', 'Given:', `7 main (7000000000 base units) to ${bob!.base58}`, `unbound gas`, `(${total} × 1e-9)`, 'Transactions (')
    const items = page.getByTestId('account-transactions').locator('li')
    await expect.poll(() => items.count(), { timeout: PAGE_MS }).toBe(25)
    await shot('account-native')
    await page.getByRole('button', { name: 'Older' }).click()
    await showsText(`native ${chain.approve}`, `native ${chain.native}`)
    await page.getByRole('button', { name: 'Newer' }).click()
    await expect.poll(() => page.getByTestId('account-transactions').innerText(), { timeout: PAGE_MS }).not.toContain(chain.approve)
    expect(pageErrors).toEqual([])
  })

  it("a contract's storage, a page at a time, as eth_getStorageAt reads it", async () => {
    const contract = `0x${'00'.repeat(19)}5e`
    await devnet.rpc('hardhat_setCode', [contract, '0x00'])
    for (let i = 1; i <= 40; i++) await devnet.rpc('hardhat_setStorageAt', [contract, `0x${i.toString(16).padStart(64, '0')}`, `0x${(1000 + i).toString(16).padStart(64, '0')}`])
    await open(`address/${contract}`)
    await showsText('Storage (40 slots)', `0x${(1000 + 32).toString(16).padStart(64, '0')}`)
    await page.getByRole('button', { name: 'Next slots' }).click()
    await showsText(`0x${(1000 + 40).toString(16).padStart(64, '0')}`)
    expect(await page.getByTestId('storage').locator('tr').count()).toBe(8)
    await open(`address/${chain.token}`)
    const slot = (await devnet.rpc('eth_getStorageAt', [chain.token, '0x2', 'latest'])) as string
    await showsText('Storage (', slot, 'contracts/Token.sol:Token')
    await shot('account-contract')
    expect(pageErrors).toEqual([])
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
    // A native transaction's hash as REST writes it (no 0x, byte-reversed), and a block's.
    await page.getByLabel('search').fill(chain.native)
    await page.getByRole('button', { name: 'Search' }).click()
    await showsText('Native transaction', 'Transfer (main token, transfer)')
    const restBlock = (await devnet.rest.get(`/api/v1/block/details/height/${chain.transferBlock}`)).Result as { Hash: string }
    await page.getByLabel('search').fill(restBlock.Hash)
    await page.getByRole('button', { name: 'Search' }).click()
    await showsText(`Block ${chain.transferBlock}`, 'NextBookkeeper')
    expect(pageErrors).toEqual([])
  })
})
