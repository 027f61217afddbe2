/**
 * The synthetic gas-token Transfer log of a SELFDESTRUCT payout (reference §6.4;
 * vm/evm/instructions.go `opSuicide` calls `MakeOngTransferLog(contract, beneficiary,
 * balance)` where the opcode runs): in the receipt, in order with the contract's own
 * logs, in the REST event record as an `IsEvm` notify, and nowhere when the frame that
 * self-destructed is reverted. Fixture: `SelfDestruct` (fixtures/contracts, Istanbul).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Interface, id } from 'ethers'
import { SelfDestruct } from '../fixtures/index.ts'
import { createDevnet, type Devnet } from '../src/index.ts'
import { GAS_TOKEN, GOVERNANCE, GWEI, TRANSFER_TOPIC, addressTopic, word } from './support.ts'

const abi = new Interface(SelfDestruct.abi as never)
const FUNDED = id('Funded(uint256)')
const SURVIVED = id('Survived()')
const ENDOWMENT = 5n * 10n ** 18n
const PAID_IN = 3n * 10n ** 18n

type Log = { address: string; topics: string[]; data: string; logIndex: string }
type Receipt = { status: string; gasUsed: string; logs: Log[]; contractAddress: string | null; transactionIndex: string }

/** REST hex of a 0x hash or address: the bytes reversed, no 0x (reference §1.7). */
const rev = (hex: string) => Buffer.from(hex.slice(2), 'hex').reverse().toString('hex')

/** The node's notify States of an EVM log: address ‖ u32 LE topic count ‖ topics ‖ varbytes(data) (§1.4.6). */
function logStates(log: Log): string {
  const data = Buffer.from(log.data.slice(2), 'hex')
  const count = Buffer.alloc(4)
  count.writeUInt32LE(log.topics.length)
  return `0x${log.address.slice(2)}${count.toString('hex')}${log.topics.map((t) => t.slice(2)).join('')}${data.length.toString(16).padStart(2, '0')}${data.toString('hex')}`
}

describe('SELFDESTRUCT payout Transfer log', () => {
  let devnet: Devnet
  let from: string
  let beneficiary: string

  beforeAll(async () => {
    devnet = await createDevnet({ accounts: 2, nativeAccounts: 0, clock: 'frozen', genesisTimestamp: 1_700_000_000 })
    from = devnet.accounts[0]!.address
    beneficiary = devnet.accounts[1]!.address
  })
  afterAll(() => devnet.close())

  async function send(to: string | undefined, data: string, value = 0n, gasPrice = GWEI): Promise<{ hash: string; receipt: Receipt }> {
    const hash = (await devnet.rpc('eth_sendTransaction', [
      { from, ...(to === undefined ? {} : { to }), data, value: `0x${value.toString(16)}`, gasPrice: `0x${gasPrice.toString(16)}`, gas: '0x100000' },
    ])) as string
    return { hash, receipt: (await devnet.rpc('eth_getTransactionReceipt', [hash])) as Receipt }
  }

  async function deploy(): Promise<string> {
    const { receipt } = await send(undefined, SelfDestruct.bytecode, ENDOWMENT)
    expect(receipt.status).toBe('0x1')
    return receipt.contractAddress!
  }

  const balance = async (address: string) => BigInt((await devnet.rpc('eth_getBalance', [address, 'latest'])) as string)

  it('logs the payout from the contract to the beneficiary where the opcode runs, between the call value log and the fee log', async () => {
    const contract = await deploy()
    const before = await balance(beneficiary)
    const { hash, receipt } = await send(contract, abi.encodeFunctionData('destroy', [beneficiary]), PAID_IN)
    expect(receipt.status).toBe('0x1')
    const fee = BigInt(receipt.gasUsed) * GWEI
    const payout = ENDOWMENT + PAID_IN
    expect(await balance(beneficiary)).toBe(before + payout)
    expect(await balance(contract)).toBe(0n)
    expect(await devnet.rpc('eth_getCode', [contract, 'latest'])).toBe('0x')
    const shape = receipt.logs.map((l) => ({ address: l.address, topics: l.topics, data: l.data }))
    expect(shape).toEqual([
      // The call's value moves first (its log leads the frame), then the contract's own event,
      { address: GAS_TOKEN, topics: [TRANSFER_TOPIC, addressTopic(from), addressTopic(contract)], data: word(PAID_IN) },
      { address: contract, topics: [FUNDED], data: word(payout) },
      // …then the payout where SELFDESTRUCT runs, and the fee last.
      { address: GAS_TOKEN, topics: [TRANSFER_TOPIC, addressTopic(contract), addressTopic(beneficiary)], data: word(payout) },
      { address: GAS_TOKEN, topics: [TRANSFER_TOPIC, addressTopic(from), addressTopic(GOVERNANCE)], data: word(fee) },
    ])
    const block = Number(((await devnet.rpc('eth_getTransactionByHash', [hash])) as { blockNumber: string }).blockNumber)
    const logs = (await devnet.rpc('eth_getLogs', [{ fromBlock: `0x${block.toString(16)}`, toBlock: `0x${block.toString(16)}` }])) as Log[]
    expect(logs.map((l) => l.data)).toEqual(receipt.logs.map((l) => l.data))

    // The REST event record carries the same four logs as IsEvm notifies (§1.4.6).
    const record = (await devnet.rest.get(`/api/v1/smartcode/event/txhash/${rev(hash)}`)).Result as { Notify: unknown[]; State: number }
    expect(record.State).toBe(1)
    expect(record.Notify).toEqual(receipt.logs.map((l) => ({ ContractAddress: rev(l.address), States: logStates(l), IsEvm: true })))
  })

  it('logs nothing for a contract without balance, and nothing at all at gas price 0', async () => {
    const { receipt: created } = await send(undefined, SelfDestruct.bytecode, 0n, 0n)
    const contract = created.contractAddress!
    const { receipt } = await send(contract, abi.encodeFunctionData('destroy', [beneficiary]), 0n, 0n)
    expect(receipt.status).toBe('0x1')
    expect(receipt.logs.map((l) => l.topics[0])).toEqual([FUNDED])
  })

  it('a self-destruct in a frame that reverts logs nothing and pays nothing; the transaction goes on', async () => {
    const contract = await deploy()
    const before = await balance(beneficiary)
    const { receipt } = await send(contract, abi.encodeFunctionData('tryDestroyAndRevert', [beneficiary]))
    expect(receipt.status).toBe('0x1')
    const fee = BigInt(receipt.gasUsed) * GWEI
    expect(receipt.logs.map((l) => ({ address: l.address, topics: l.topics, data: l.data }))).toEqual([
      { address: contract, topics: [SURVIVED], data: '0x' },
      { address: GAS_TOKEN, topics: [TRANSFER_TOPIC, addressTopic(from), addressTopic(GOVERNANCE)], data: word(fee) },
    ])
    expect(await balance(beneficiary)).toBe(before)
    expect(await balance(contract)).toBe(ENDOWMENT)
    expect(await devnet.rpc('eth_getCode', [contract, 'latest'])).toBe(SelfDestruct.deployedBytecode)
  })

  it('a transaction that reverts after the self-destruct keeps only the fee log', async () => {
    const contract = await deploy()
    const { receipt } = await send(contract, abi.encodeFunctionData('destroyAndRevert', [beneficiary]))
    expect(receipt.status).toBe('0x0')
    const fee = BigInt(receipt.gasUsed) * GWEI
    expect(receipt.logs.map((l) => l.data)).toEqual([word(fee)])
    expect(await balance(contract)).toBe(ENDOWMENT)
  })

  it('eth_call of a self-destruct succeeds and changes nothing', async () => {
    const contract = await deploy()
    const data = abi.encodeFunctionData('destroy', [beneficiary])
    expect(await devnet.rpc('eth_call', [{ from, to: contract, data }, 'latest'])).toBe('0x')
    expect(await balance(contract)).toBe(ENDOWMENT)
    expect(await devnet.rpc('eth_getCode', [contract, 'latest'])).toBe(SelfDestruct.deployedBytecode)
  })
})
