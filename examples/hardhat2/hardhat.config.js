// Hardhat 2 with dualnet: `npx hardhat test --network dualnet` runs this suite on an
// in-process dualnet; `npx hardhat test` still runs it on Hardhat's own network.
require('@nomicfoundation/hardhat-ethers')
require('@nomicfoundation/hardhat-chai-matchers')
require('dualnet/hardhat')

const { subtask } = require('hardhat/config')
const { TASK_COMPILE_SOLIDITY_GET_SOLC_BUILD } = require('hardhat/builtin-tasks/task-names')

// Offline compilation, for this repository's CI only (a project with internet access
// leaves this out): Hardhat downloads solc, so the compiler comes from the npm `solc`
// package (solc-js) instead. Its version must be the one `solidity.version` names.
subtask(TASK_COMPILE_SOLIDITY_GET_SOLC_BUILD, async ({ solcVersion }, _hre, runSuper) => {
  const solcjs = require('solc/package.json')
  if (solcjs.version !== solcVersion) return runSuper()
  return {
    version: solcVersion,
    longVersion: require('solc')
      .version()
      .replace(/\.Emscripten\.clang$/, ''),
    compilerPath: require.resolve('solc/soljson.js'),
    isSolcJs: true,
  }
})

/** @type import('hardhat/config').HardhatUserConfig */
module.exports = {
  solidity: {
    version: '0.8.26',
    // The chain runs the Istanbul EVM: no PUSH0 (Shanghai) or MCOPY (Cancun) opcodes.
    settings: { evmVersion: 'istanbul' },
  },
  // createDevnet options of the devnet behind `--network dualnet` (all optional).
  dualnet: {
    chainId: 12345,
  },
}
