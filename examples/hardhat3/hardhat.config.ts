// Hardhat 3 with dualnet: `npx hardhat test --network dualnet` runs this suite on an
// in-process dualnet; `npx hardhat test` still runs it on Hardhat's own network.
import { createRequire } from 'node:module'
import { defineConfig } from 'hardhat/config'
import hardhatEthers from '@nomicfoundation/hardhat-ethers'
import hardhatEthersChaiMatchers from '@nomicfoundation/hardhat-ethers-chai-matchers'
import hardhatMocha from '@nomicfoundation/hardhat-mocha'
import hardhatNetworkHelpers from '@nomicfoundation/hardhat-network-helpers'
import hardhatViem from '@nomicfoundation/hardhat-viem'
import dualnet from 'dualnet/hardhat'

const require = createRequire(import.meta.url)

export default defineConfig({
  plugins: [hardhatEthers, hardhatEthersChaiMatchers, hardhatViem, hardhatNetworkHelpers, hardhatMocha, dualnet],
  solidity: {
    version: '0.8.26',
    // Offline compilation, for this repository's CI only (a project with internet
    // access leaves this out): Hardhat downloads solc, so the compiler is the npm
    // `solc` package's solc-js build, of the same version.
    path: require.resolve('solc/soljson.js'),
    // The chain runs the Istanbul EVM: no PUSH0 (Shanghai) or MCOPY (Cancun) opcodes.
    settings: { evmVersion: 'istanbul' },
  },
  // createDevnet options of the devnet behind `--network dualnet` (all optional).
  dualnet: {
    chainId: 12345,
  },
})
