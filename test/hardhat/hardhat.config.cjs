// The Hardhat 2 project of test/network-helpers.test.ts, loaded through HARDHAT_CONFIG:
// one HTTP network, the devnet the test starts (its URL in DUALNET_RPC_URL), selected
// with HARDHAT_NETWORK=dualnet; hardhat-ethers for sending as a Hardhat suite does.
// Nothing is compiled.
require('@nomicfoundation/hardhat-ethers')

module.exports = {
  networks: {
    dualnet: { url: process.env.DUALNET_RPC_URL ?? 'http://127.0.0.1:20339', chainId: 12345 },
  },
}
