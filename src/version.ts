/** The package version, reported by web3_clientVersion. Kept in step with package.json by a test. */
export const VERSION = '0.1.0'

/** The node version dualnet reports where the real node reports its own (REST getversion, web3_clientVersion `Ontology-<version>`). */
export const NODE_VERSION = `v${VERSION}-dualnet`
