/**
 * Otterscan in a real browser (issue 34, acceptance): a built Otterscan, given by
 * `DUALNET_OTTERSCAN_DIST` (test/otterscan-support.ts: the repository neither holds nor
 * builds it), served on loopback with a `config.json` whose `erigonURL` is the dualnet
 * CLI's JSON-RPC URL, and driven with playwright-core in Debian's chromium (`chromium`
 * on PATH, or `DUALNET_CHROMIUM`; never a downloaded browser). A script fills the chain
 * (test/otterscan-chain.ts), then each page must render the expected text with no error
 * banner, no uncaught page error, and no JSON-RPC error but the ones named in
 * ALLOWED_RPC_ERRORS. The screenshots go to docs/otterscan/ (docs/tools.md shows them;
 * `DUALNET_OTTERSCAN_SCREENSHOTS` sends them elsewhere). Skipped, saying why, without a
 * built Otterscan, or without chromium outside CI; CI installs chromium (.ci/run), and
 * there a missing browser fails when an Otterscan is given. In `npm run test:tools`.
 */
import { existsSync, mkdirSync } from 'node:fs'
import { delimiter, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { getAddress } from 'ethers'
import { type Browser, chromium, type Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { rpcCall, started, stop, type RunningCli } from './cli-support.ts'
import { type FilledChain, fillChain, OTTERSCAN_PAGE_SIZE } from './otterscan-chain.ts'
import { ASSETS, OTTERSCAN_COMMIT, otterscanDist, serveOtterscan, type StaticSite } from './otterscan-support.ts'

/** Debian's chromium: `DUALNET_CHROMIUM`, else `chromium` on PATH (the package puts it in /usr/bin). */
const CHROMIUM =
  process.env.DUALNET_CHROMIUM ??
  (process.env.PATH ?? '')
    .split(delimiter)
    .filter((dir) => dir !== '')
    .map((dir) => join(dir, 'chromium'))
    .find((path) => existsSync(path)) ??
  '/usr/bin/chromium'
const HAVE_CHROMIUM = existsSync(CHROMIUM)
const SHOTS = process.env.DUALNET_OTTERSCAN_SCREENSHOTS ?? fileURLToPath(new URL('../docs/otterscan/', import.meta.url))
/** How long one page may take to show its text on a busy 2-core machine. */
const PAGE_MS = 120_000
/** Filling the chain and starting chromium on a busy machine. */
const SETUP_MS = 600_000
/** The built Otterscan the test serves, if one is given. */
const DIST = otterscanDist()

/** Texts of Otterscan's error states: the error boundary, the probe's panels, a missing trace method, a page or object not found. */
const ERROR_TEXTS = ['Something went wrong', 'Otterscan encountered an error', 'does not seem to', 'does not support the', 'Page not found', 'not found.']

/**
 * The JSON-RPC errors Otterscan's pages may meet on this chain, each for a reason that
 * is the chain's or Otterscan's, not a gap in dualnet; any other error fails the test.
 */
const ALLOWED_RPC_ERRORS: { method: string; code: number; why: string; when?: (params: unknown[]) => boolean }[] = [
  // Otterscan reads name() of every address a transaction touches, to label tokens.
  { method: 'eth_call', code: 3, why: 'name() of an address that is not a token reverts' },
  // It asks each listed transaction's internal operations; the chain traces EVM transactions only.
  { method: 'ots_getInternalOperations', code: -32000, why: 'a native transaction has no EVM trace' },
  // It asks whether an address had code at the block before a transaction: -1 for the genesis block's native transactions.
  { method: 'ots_hasCode', code: -32602, why: 'block -1, before the genesis block (refused as Erigon and Anvil refuse it)', when: (params) => params[1] === -1 },
]

/** One JSON-RPC error answered to the page. */
interface SeenError {
  method: string
  params: unknown[]
  code: number
  message: string
}

const IN_CI = process.env.CI !== undefined
const MISSING = `no chromium at ${CHROMIUM}; .ci/run installs Debian's package (apt-get install chromium), or set DUALNET_CHROMIUM`
const NO_OTTERSCAN = 'no built Otterscan: set DUALNET_OTTERSCAN_DIST to its dist/ (the repository neither holds nor builds it; docs/tools.md)'
const title =
  DIST === undefined
    ? `Otterscan in chromium (skipped: ${NO_OTTERSCAN})`
    : HAVE_CHROMIUM
      ? `Otterscan (written against ${OTTERSCAN_COMMIT.slice(0, 8)}) in Debian's chromium against the CLI`
      : `Otterscan in chromium (${IN_CI ? 'failing in CI' : 'skipped'}: ${MISSING})`

describe.runIf(DIST !== undefined && (HAVE_CHROMIUM || IN_CI))(title, () => {
  let cli: RunningCli & { rpcUrl: string; restUrl: string | undefined }
  let chain: FilledChain
  let site: StaticSite
  let browser: Browser
  let page: Page
  const pageErrors: string[] = []
  const rpcErrors: SeenError[] = []

  beforeAll(async () => {
    if (!HAVE_CHROMIUM) throw new Error(`CI must run the Otterscan browser test: ${MISSING}`)
    const dist = DIST!
    // Blocks an hour in the past, 12 s apart: ages read "… mins ago", never in the future.
    const genesis = Math.floor(Date.now() / 1000) - 3600
    cli = await started(['--rest', '--restport', '0', '--rpcport', '0', '--accounts', '3', '--native-accounts', '2', '--quiet', '--timestamp', String(genesis), '--clock', '12'])
    chain = await fillChain(cli.rpcUrl, cli.restUrl!, cli.output())
    site = await serveOtterscan(
      dist,
      (origin) => ({
        erigonURL: cli.rpcUrl,
        assetsURLPrefix: `${origin}${ASSETS.slice(0, -1)}`,
        chainInfo: { name: 'dualnet', faucets: [], nativeCurrency: { name: 'ONG', symbol: 'ONG', decimals: 18 } },
      }),
      chain.assets,
    )
    // Root (as in CI containers) cannot use chromium's sandbox; a container's /dev/shm is often 64 MB.
    const args = ['--disable-dev-shm-usage', ...(process.getuid?.() === 0 ? ['--no-sandbox'] : [])]
    browser = await chromium.launch({ executablePath: CHROMIUM, args, timeout: PAGE_MS })
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } })
    context.setDefaultTimeout(PAGE_MS)
    // Loopback only: Sourcify and the like are not asked (the test runs offline and the same everywhere).
    await context.route(/^(?!http:\/\/127\.0\.0\.1[:/])/, (route) => route.abort())
    page = await context.newPage()
    page.on('pageerror', (error) => pageErrors.push(error.message))
    page.on('response', async (response) => {
      if (!response.url().startsWith(cli.rpcUrl)) return
      try {
        const sent = response.request().postDataJSON() as { id: number; method: string; params: unknown[] } | { id: number; method: string; params: unknown[] }[]
        const answer = (await response.json()) as { id: number; error?: { code: number; message: string } } | { id: number; error?: { code: number; message: string } }[]
        const requests = Array.isArray(sent) ? sent : [sent]
        for (const one of Array.isArray(answer) ? answer : [answer]) {
          if (one.error === undefined) continue
          const request = requests.find((r) => r.id === one.id)
          rpcErrors.push({ method: request?.method ?? '?', params: request?.params ?? [], code: one.error.code, message: one.error.message })
        }
      } catch {
        // A preflight (OPTIONS) or a body the page dropped: nothing to check.
      }
    })
    mkdirSync(SHOTS, { recursive: true })
  }, SETUP_MS)

  afterAll(async () => {
    await browser?.close()
    await site?.close()
    if (cli !== undefined) await stop(cli)
  })

  /** Resolves once the page's text holds every one of `texts` (failing with the ones still missing). */
  const showsText = async (...texts: string[]) => {
    const missing = async () => {
      const text = await page.locator('body').innerText()
      return texts.filter((wanted) => !text.includes(wanted))
    }
    await expect.poll(missing, { timeout: PAGE_MS, interval: 250 }).toEqual([])
  }

  /** Opens `path` and waits for Otterscan to be connected (its header names the chain) and for `texts`. */
  const visit = async (path: string, ...texts: string[]) => {
    await page.goto(`${site.origin}${path}`, { waitUntil: 'domcontentloaded' })
    await showsText('You are on dualnet', ...texts)
  }

  /** The page shows no error state, threw nothing, and met no JSON-RPC error but the allowed ones; then its screenshot is taken. */
  const checkAndShoot = async (name: string) => {
    const text = await page.innerText('body')
    for (const error of ERROR_TEXTS) expect(text, `"${error}" on ${page.url()}`).not.toContain(error)
    expect(pageErrors, `uncaught errors on ${page.url()}`).toEqual([])
    const unexpected = rpcErrors.filter((e) => !ALLOWED_RPC_ERRORS.some((a) => a.method === e.method && a.code === e.code && (a.when?.(e.params) ?? true)))
    expect(unexpected, `JSON-RPC errors on ${page.url()}`).toEqual([])
    rpcErrors.length = 0
    await page.screenshot({ path: join(SHOTS, `${name}.png`) })
  }

  /** Resolves once the first row of the address page's transaction table shows `text`. */
  const firstRowShows = async (text: string) => {
    await expect.poll(() => page.locator('tbody tr').first().innerText(), { timeout: PAGE_MS, interval: 250 }).toContain(text)
  }

  it('the home page: connected (ots_getApiLevel 8, erigon_getHeaderByNumber), the latest block', async () => {
    const latest = Number((await rpcCall(cli.rpcUrl, 'eth_blockNumber')) as string)
    await visit('/', `Latest block: ${latest}`)
    await checkAndShoot('home')
  })

  it("a block: its height, transaction count, fees as the reward, hash; a block's transaction list with a native transfer", async () => {
    const receipt = (await rpcCall(cli.rpcUrl, 'eth_getTransactionReceipt', [chain.run])) as { blockNumber: string; blockHash: string }
    const height = Number(receipt.blockNumber)
    await visit(`/block/${height}`, 'Block Height:', String(height), '1 transaction in this block', receipt.blockHash, 'Gas Used/Limit:')
    await checkAndShoot('block')
    // ots_getBlockTransactions lists the block's native transaction too.
    const nativeBlock = (await rpcCall(cli.rpcUrl, 'ots_searchTransactionsBefore', [chain.nativePayee.address, 0, 1])) as { txs: { hash: string; blockNumber: string }[] }
    expect(nativeBlock.txs[0]!.hash).toBe(chain.native)
    await visit(`/block/${Number(nativeBlock.txs[0]!.blockNumber)}/txs`, 'A total of 1 transaction found', chain.native, getAddress(chain.nativePayer.address))
    await checkAndShoot('block-transactions')
  })

  it('a transaction: its action, internal value transfers, token transfers, fee', async () => {
    await visit(
      `/tx/${chain.run}`,
      'Success',
      'Transaction Action:',
      'run',
      // The value forwarded to the callee, an internal transfer from ots_getInternalOperations.
      'TRANSFER',
      getAddress(chain.callee),
      '0.5 ONG',
      'Tokens Transferred',
      'Transaction Fee:',
    )
    // Two: the sender's value into the caller, and the caller's into the callee.
    expect((await page.locator('body').innerText()).match(/\bTRANSFER\b/g)).toHaveLength(2)
    await checkAndShoot('tx-overview')
    await visit(`/tx/${chain.erc20Transfer}`, 'transfer', 'Tokens Transferred', 'Otter Token (OTT)', '250', getAddress(chain.holder))
    await checkAndShoot('tx-erc20-transfer')
  })

  it('a transaction: its logs decoded by topic0, its trace, its state diff', async () => {
    await visit(
      `/tx/${chain.run}/logs`,
      'Logs (5)',
      'Pinged(address indexed from, uint256 value)',
      'Done(uint256 result)',
      // The chain's gas-token Transfer logs: the value moved, then the fee.
      'Transfer(address indexed from, address indexed to, uint256 value)',
    )
    await checkAndShoot('tx-logs')
    // ots_traceTransaction: the call with value, the inner call with value, the static call that reverted.
    await visit(`/tx/${chain.run}/trace`, 'run', 'ping', 'fail', 'staticcall', '{value: 0.5 ONG}')
    await checkAndShoot('tx-trace')
    // trace_replayTransaction's stateDiff: the callee received 0.5, the sender paid it and the fee.
    await visit(`/tx/${chain.run}/statediff`, getAddress(chain.callee), '+0.5 ONG', getAddress(chain.deployer), 'balance')
    await checkAndShoot('tx-state-diff')
  })

  it('a reverted transaction: its revert reason; reached by its sender and nonce', async () => {
    await visit(`/tx/${chain.revert}`, "Fail with revert message: 'Reverter: always fails'", 'revertWithReason')
    await checkAndShoot('tx-revert')
    // The sender's nonce link: ots_getTransactionBySenderAndNonce (Otterscan sends the nonce as a JSON number).
    const { nonce } = (await rpcCall(cli.rpcUrl, 'eth_getTransactionByHash', [chain.revert])) as { nonce: string }
    await visit(`/address/${chain.deployer}?nonce=${Number(nonce)}`, chain.revert, "Fail with revert message: 'Reverter: always fails'")
    expect(page.url()).toContain(`/tx/${chain.revert}`)
  })

  it(`an address: its transactions, ${OTTERSCAN_PAGE_SIZE} a page, paged in both directions`, async () => {
    const transfers = OTTERSCAN_PAGE_SIZE + 1
    await visit(`/address/${chain.paged}`, getAddress(chain.paged), `${OTTERSCAN_PAGE_SIZE} transactions on this page`)
    // Newest first: the 26 gwei transfer heads the first page, 1 gwei is alone on the next.
    await firstRowShows(`0.0000000${transfers}`)
    await checkAndShoot('address')
    await page.locator('[data-test="nav-next"]').first().click()
    await showsText('1 transaction on this page')
    await firstRowShows('0.000000001')
    await page.locator('[data-test="nav-prev"]').first().click()
    await firstRowShows(`0.0000000${transfers}`)
    // From the other end: the last page holds the oldest 25, newest of them first.
    await page.locator('[data-test="nav-last"]').first().click()
    await firstRowShows(`0.0000000${transfers - 1}`)
    await showsText(`${OTTERSCAN_PAGE_SIZE} transactions on this page`)
    await page.locator('[data-test="nav-prev"]').first().click()
    await firstRowShows(`0.0000000${transfers}`)
    await showsText('1 transaction on this page')
    await page.locator('[data-test="nav-next"]').first().click()
    await firstRowShows(`0.0000000${transfers - 1}`)
    await checkAndShoot('address-last-page')
    expect(page.url()).toContain(`/address/${getAddress(chain.paged)}/txs/next`)
  })

  it('a contract: its creator and creating transaction, its name, its transactions', async () => {
    await visit(`/address/${chain.token}`, 'Otter Token (OTT)', 'Contract creator:', getAddress(chain.deployer), chain.tokenDeploy, '3 transactions on this page')
    await checkAndShoot('contract')
  })

  it("a native transfer on its payee's address page (found by the address index)", async () => {
    await visit(`/address/${chain.nativePayee.address}`, getAddress(chain.nativePayee.address), chain.native, getAddress(chain.nativePayer.address))
    await checkAndShoot('native-transfer')
  })
})
