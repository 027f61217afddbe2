/**
 * Type tests of the typed API (vitest typecheck mode, part of `npm test`): the method
 * schema types `devnet.rpc` and `devnet.request` per method (names, params, results),
 * `rpcUntyped` takes anything, the schema lists exactly the methods the table serves,
 * and the internal Chain is not part of the public Devnet type.
 */
import type { AbstractLevel } from 'abstract-level'
import type { ClassicLevel } from 'classic-level'
import type { MemoryLevel } from 'memory-level'
import { createPublicClient, type EIP1193RequestFn } from 'viem'
import { describe, expectTypeOf, it } from 'vitest'
import type {
  Devnet,
  DevnetOptions,
  DualnetRpcSchema,
  Hardfork,
  LevelDatabase,
  RestBalance,
  RestBlock,
  RestEnvelope,
  RestEventRecord,
  RestPreExecResult,
  RestRouteTemplate,
  RestTransaction,
  RpcBlock,
  RpcMethodName,
  RpcReceipt,
  RpcResult,
  Quantity,
} from '../src/index.ts'
import type { ServedMethodName } from '../src/rpc/methods/index.ts'
import type { ServedRestTemplate } from '../src/rest/routes/index.ts'
import { devnetTransport, dualnet, dualnetRpcSchema } from '../src/viem.ts'
import { alias, anvilAlias, defineMethod } from '../src/rpc/declare.ts'
import { address, boolean, callRequest, stateBlock } from '../src/rpc/paramSpecs.ts'
import { hardhat_mine } from '../src/rpc/methods/hardhat_mine.ts'
import { evm_setBlockGasLimit } from '../src/rpc/methods/evm_setBlockGasLimit.ts'

declare const devnet: Devnet

describe('devnet.rpc', () => {
  it('types results per method, without casts', () => {
    expectTypeOf(devnet.rpc('eth_blockNumber')).resolves.toEqualTypeOf<Quantity>()
    expectTypeOf(devnet.rpc('eth_getBalance', ['0x00000000000000000000000000000000000000aa', 'latest'])).resolves.toEqualTypeOf<Quantity>()
    expectTypeOf(devnet.rpc('eth_getTransactionReceipt', ['0x12'])).resolves.toEqualTypeOf<RpcReceipt | null>()
    expectTypeOf(devnet.rpc('eth_getBlockByNumber', ['latest', false])).resolves.toEqualTypeOf<RpcBlock | null>()
    expectTypeOf(devnet.rpc('evm_snapshot')).resolves.toEqualTypeOf<Quantity>()
    expectTypeOf(devnet.rpc('evm_revert', ['0x1'])).resolves.toEqualTypeOf<boolean>()
    expectTypeOf(devnet.rpc('eth_accounts')).resolves.toEqualTypeOf<`0x${string}`[]>()
    expectTypeOf<RpcResult<'hardhat_getAutomine'>>().toEqualTypeOf<boolean>()
  })

  it('refuses unknown method names and wrong params', () => {
    // @ts-expect-error a misspelt method
    void devnet.rpc('eth_getBalanse', ['0x00', 'latest'])
    // @ts-expect-error params of the wrong types
    void devnet.rpc('eth_getBalance', [123, { x: 1 }])
    // @ts-expect-error a required param missing
    void devnet.rpc('eth_getBalance', ['0x00000000000000000000000000000000000000aa'])
    // @ts-expect-error params where the method takes none
    void devnet.rpc('eth_chainId', ['0x1'])
    // @ts-expect-error a tracer the devnet does not serve
    void devnet.rpc('debug_traceTransaction', ['0x12', { tracer: 'nosuchTracer' }])
    // @ts-expect-error required params left out
    void devnet.rpc('eth_call')
  })

  it('rpcUntyped takes any method and params and resolves to unknown', () => {
    expectTypeOf(devnet.rpcUntyped('anything_at_all', [1, { x: 2 }])).resolves.toEqualTypeOf<unknown>()
  })
})

describe('devnet.request (EIP-1193)', () => {
  it('is typed per method as viem types EIP1193RequestFn', () => {
    expectTypeOf(devnet.request({ method: 'eth_chainId' })).resolves.toEqualTypeOf<Quantity>()
    expectTypeOf(devnet.request({ method: 'eth_getCode', params: ['0x00000000000000000000000000000000000000aa', 'latest'] })).resolves.toEqualTypeOf<`0x${string}`>()
    // @ts-expect-error a misspelt method
    void devnet.request({ method: 'eth_chainID' })
  })
})

describe('the schema', () => {
  it('lists exactly the methods of the method table', () => {
    expectTypeOf<RpcMethodName>().toEqualTypeOf<ServedMethodName>()
  })
})

describe('public types', () => {
  it('hardfork is a union of the supported forks', () => {
    expectTypeOf<DevnetOptions['hardfork']>().toEqualTypeOf<Hardfork | undefined>()
    // @ts-expect-error not a supported fork
    const options: DevnetOptions = { hardfork: 'homestead' }
    void options
  })

  it('Devnet does not expose the internal Chain', () => {
    expectTypeOf<Devnet>().not.toHaveProperty('chain')
  })

  it('the db option takes an abstract-level database as it is, without naming abstract-level', () => {
    expectTypeOf<MemoryLevel>().toExtend<LevelDatabase>()
    expectTypeOf<MemoryLevel<string, string>>().toExtend<DevnetOptions['db']>()
    expectTypeOf<ClassicLevel<string, string>>().toExtend<LevelDatabase>()
    expectTypeOf<AbstractLevel<any, string, any>>().toExtend<LevelDatabase>()
    // Not a database: keys and values are strings, and the store's methods are needed.
    expectTypeOf<{ get(key: string): Promise<string | undefined> }>().not.toExtend<LevelDatabase>()
  })
})

describe('devnet.rest', () => {
  it("types each route's Result by path", () => {
    expectTypeOf(devnet.rest.get('/api/v1/block/height')).resolves.toEqualTypeOf<RestEnvelope<number>>()
    expectTypeOf(devnet.rest.get(`/api/v1/balancev2/${devnet.accounts[0]!.base58}`)).resolves.toEqualTypeOf<RestEnvelope<RestBalance>>()
    expectTypeOf(devnet.rest.get('/api/v1/block/details/height/1')).resolves.toEqualTypeOf<RestEnvelope<RestBlock>>()
    expectTypeOf(devnet.rest.get(`/api/v1/block/details/height/${1 + 1}`)).resolves.toEqualTypeOf<RestEnvelope<RestBlock>>()
    expectTypeOf(devnet.rest.get('/api/v1/transaction/ab12?raw=1')).resolves.toEqualTypeOf<RestEnvelope<string>>()
    expectTypeOf(devnet.rest.get('/api/v1/transaction/ab12')).resolves.toEqualTypeOf<RestEnvelope<RestTransaction>>()
    expectTypeOf(devnet.rest.get('/api/v1/block/height/txhash/ab12')).resolves.toEqualTypeOf<RestEnvelope<number>>()
    expectTypeOf(devnet.rest.get('/api/v1/smartcode/event/txhash/ab12')).resolves.toEqualTypeOf<RestEnvelope<RestEventRecord | ''>>()
    expectTypeOf(devnet.rest.get('/api/v1/allowancev2?asset=gas&from=a&to=b')).resolves.toEqualTypeOf<RestEnvelope<string>>()
    expectTypeOf(devnet.rest.get('/api/v1/mempool/txcount')).resolves.toEqualTypeOf<RestEnvelope<[number, number]>>()
    expectTypeOf(devnet.rest.post('/api/v1/transaction', { Data: '00d1' })).resolves.toEqualTypeOf<RestEnvelope<string>>()
    expectTypeOf(devnet.rest.post('/api/v1/transaction?preExec=1', { Data: '00d1' })).resolves.toEqualTypeOf<RestEnvelope<RestPreExecResult>>()
  })

  it('refuses a literal path no route serves; a string path gives unknown', () => {
    // @ts-expect-error a misspelt route
    void devnet.rest.get('/api/v1/block/heigth')
    // @ts-expect-error GET only
    void devnet.rest.post('/api/v1/block/height', {})
    const computed: string = '/api/v1/block/height'
    expectTypeOf(devnet.rest.get(computed)).resolves.toEqualTypeOf<RestEnvelope<unknown>>()
  })

  it('the schema lists exactly the routes of the route table', () => {
    expectTypeOf<RestRouteTemplate>().toEqualTypeOf<ServedRestTemplate>()
  })
})

describe('dualnet/viem', () => {
  it('types the transport and, with rpcSchema, the client by the same schema', () => {
    const transport = devnetTransport(devnet)
    expectTypeOf(transport({}).request).toEqualTypeOf<EIP1193RequestFn<DualnetRpcSchema>>()
    const client = createPublicClient({ chain: dualnet, transport, rpcSchema: dualnetRpcSchema })
    expectTypeOf(client.request({ method: 'evm_snapshot' })).resolves.toEqualTypeOf<Quantity>()
    expectTypeOf(client.request({ method: 'eth_getBalance', params: ['0x00000000000000000000000000000000000000aa', 'latest'] })).resolves.toEqualTypeOf<Quantity>()
    // @ts-expect-error a misspelt method (a public client also takes viem's public methods, which it merges in)
    void client.request({ method: 'evm_snapshat' })
  })
})

describe('method declarations (rpc/declare.ts)', () => {
  it('are compiled against DualnetRpcSchema: params, their count and the result', () => {
    defineMethod({
      name: 'eth_getBalance',
      // @ts-expect-error one param spec too many: the schema's eth_getBalance takes two
      params: [address('address'), stateBlock('block'), boolean('extra')],
      fork: { kind: 'state', param: 1 },
      handler: () => '0x0' as const,
    })
    defineMethod({
      name: 'eth_getBalance',
      // @ts-expect-error a spec of another wire type than the schema's position (boolean for an address)
      params: [boolean('address'), stateBlock('block')],
      fork: { kind: 'state', param: 1 },
      handler: () => '0x0' as const,
    })
    defineMethod({
      name: 'eth_getBalance',
      params: [address('address'), stateBlock('block')],
      fork: { kind: 'state', param: 1 },
      // @ts-expect-error a result of another type than the schema's (a number for a Quantity)
      handler: () => 5,
    })
    defineMethod({
      name: 'eth_call',
      // @ts-expect-error a required param left out
      params: [callRequest('call')],
      fork: { kind: 'simulation', param: 1 },
      handler: () => '0x' as const,
    })
  })

  it('give the handler each spec’s parsed type', () => {
    defineMethod({
      name: 'eth_getBalance',
      params: [address('address'), stateBlock('block')],
      fork: { kind: 'state', param: 1 },
      handler: (_ctx, [a, height]) => {
        expectTypeOf(a).toEqualTypeOf<Uint8Array>()
        expectTypeOf(height).toEqualTypeOf<number>()
        return '0x0' as const
      },
    })
  })

  it('an alias serves a method of the same params and result only', () => {
    expectTypeOf(alias('anvil_setBlockGasLimit', evm_setBlockGasLimit).name).toEqualTypeOf<'anvil_setBlockGasLimit'>()
    // @ts-expect-error eth_chainId takes no params, as hardhat_mine's optional ones, but answers a Quantity, not true
    alias('eth_chainId', hardhat_mine)
    // @ts-expect-error anvil_mine answers null (Anvil's), hardhat_mine true: only anvilAlias serves it
    alias('anvil_mine', hardhat_mine)
    expectTypeOf(anvilAlias('anvil_mine', hardhat_mine).name).toEqualTypeOf<'anvil_mine'>()
  })
})
