import { createDevnet } from 'dualnet'
const devnet = await createDevnet()
console.log(await devnet.rpc('eth_blockNumber'))
await devnet.close()
