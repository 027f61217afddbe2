/**
 * The JSON-RPC method table: one module per method, named after it. Methods of the
 * spec's table first, then what contract test suites need beyond it.
 */
import type { RpcMethodDeclaration } from '../declare.ts'
import { anvil_snapshot, evm_snapshot } from './evm_snapshot.ts'
import { dualnet_gasSnapshot } from './dualnet_gasSnapshot.ts'
import { dualnet_coverage } from './dualnet_coverage.ts'
import { dualnet_gasReport } from './dualnet_gasReport.ts'
import { anvil_revert, evm_revert } from './evm_revert.ts'
import { evm_mine } from './evm_mine.ts'
import { anvil_increaseTime, evm_increaseTime } from './evm_increaseTime.ts'
import { anvil_setNextBlockTimestamp, evm_setNextBlockTimestamp } from './evm_setNextBlockTimestamp.ts'
import { evm_setAutomine } from './evm_setAutomine.ts'
import { evm_setIntervalMining } from './evm_setIntervalMining.ts'
import { anvil_setBlockGasLimit, evm_setBlockGasLimit } from './evm_setBlockGasLimit.ts'
import { anvil_setCoinbase, hardhat_setCoinbase } from './hardhat_setCoinbase.ts'
import { anvil_setNextBlockBaseFeePerGas, hardhat_setNextBlockBaseFeePerGas } from './hardhat_setNextBlockBaseFeePerGas.ts'
import { anvil_setNextBlockPrevRandao, hardhat_setPrevRandao } from './hardhat_setPrevRandao.ts'
import { anvil_mine, hardhat_mine } from './hardhat_mine.ts'
import { anvil_setBalance, evm_setAccountBalance, hardhat_setBalance, tenderly_setBalance } from './hardhat_setBalance.ts'
import { anvil_setCode, evm_setAccountCode, hardhat_setCode } from './hardhat_setCode.ts'
import { anvil_setStorageAt, evm_setAccountStorageAt, hardhat_setStorageAt } from './hardhat_setStorageAt.ts'
import { anvil_setNonce, evm_setAccountNonce, hardhat_setNonce } from './hardhat_setNonce.ts'
import { anvil_impersonateAccount, hardhat_impersonateAccount } from './hardhat_impersonateAccount.ts'
import { anvil_stopImpersonatingAccount, hardhat_stopImpersonatingAccount } from './hardhat_stopImpersonatingAccount.ts'
import { anvil_setBlockTimestampInterval } from './anvil_setBlockTimestampInterval.ts'
import { anvil_removeBlockTimestampInterval } from './anvil_removeBlockTimestampInterval.ts'
import { anvil_dumpState, hardhat_dumpState } from './anvil_dumpState.ts'
import { anvil_loadState, hardhat_loadState } from './anvil_loadState.ts'
import { dev_setMainBalance } from './dev_setMainBalance.ts'
import { anvil_setAutomine } from './anvil_setAutomine.ts'
import { anvil_setIntervalMining } from './anvil_setIntervalMining.ts'
import { anvil_getIntervalMining } from './anvil_getIntervalMining.ts'
import { anvil_setTime, evm_setTime } from './anvil_setTime.ts'
import { anvil_getGenesisTime } from './anvil_getGenesisTime.ts'
import { anvil_getLastBlockWallTime } from './anvil_getLastBlockWallTime.ts'
import { anvil_addBalance, hardhat_addBalance, tenderly_addBalance } from './anvil_addBalance.ts'
import { anvil_autoImpersonateAccount, hardhat_autoImpersonateAccount } from './anvil_autoImpersonateAccount.ts'
import { anvil_impersonateSignature } from './anvil_impersonateSignature.ts'
import { anvil_setChainId } from './anvil_setChainId.ts'
import { anvil_setRpcUrl } from './anvil_setRpcUrl.ts'
import { anvil_rollback } from './anvil_rollback.ts'
import { anvil_reorg } from './anvil_reorg.ts'
import { anvil_metadata, hardhat_metadata } from './anvil_metadata.ts'
import { anvil_nodeInfo } from './anvil_nodeInfo.ts'
import { anvil_mine_detailed, evm_mine_detailed } from './evm_mine_detailed.ts'
import { miner_start } from './miner_start.ts'
import { miner_stop } from './miner_stop.ts'
import { anvil_setMinGasPrice } from './anvil_setMinGasPrice.ts'
import { hardhat_setMinGasPrice } from './hardhat_setMinGasPrice.ts'
import { anvil_setLoggingEnabled } from './anvil_setLoggingEnabled.ts'
import { hardhat_setLoggingEnabled } from './hardhat_setLoggingEnabled.ts'
import { anvil_dealERC20, anvil_setERC20Balance, hardhat_dealERC20 } from './anvil_dealERC20.ts'
import { anvil_setERC20Allowance } from './anvil_setERC20Allowance.ts'
import { eth_accounts, eth_requestAccounts } from './eth_accounts.ts'
import { eth_blockNumber } from './eth_blockNumber.ts'
import { eth_call } from './eth_call.ts'
import { debug_traceCall } from './debug_traceCall.ts'
import { debug_traceTransaction } from './debug_traceTransaction.ts'
import { debug_traceBlockByNumber } from './debug_traceBlockByNumber.ts'
import { debug_traceBlockByHash } from './debug_traceBlockByHash.ts'
import { debug_traceBlock } from './debug_traceBlock.ts'
import { trace_transaction } from './trace_transaction.ts'
import { trace_transactionOpcodeGas } from './trace_transactionOpcodeGas.ts'
import { trace_blockOpcodeGas } from './trace_blockOpcodeGas.ts'
import { debug_accountInfoAt } from './debug_accountInfoAt.ts'
import { debug_getModifiedAccountsByNumber } from './debug_getModifiedAccountsByNumber.ts'
import { debug_codeByHash } from './debug_codeByHash.ts'
import { debug_dbGet } from './debug_dbGet.ts'
import { debug_freeOSMemory } from './debug_freeOSMemory.ts'
import { trace_get } from './trace_get.ts'
import { trace_block } from './trace_block.ts'
import { trace_replayTransaction } from './trace_replayTransaction.ts'
import { trace_filter } from './trace_filter.ts'
import { trace_replayBlockTransactions } from './trace_replayBlockTransactions.ts'
import { trace_call } from './trace_call.ts'
import { trace_callMany } from './trace_callMany.ts'
import { trace_rawTransaction } from './trace_rawTransaction.ts'
import { eth_chainId } from './eth_chainId.ts'
import { eth_coinbase } from './eth_coinbase.ts'
import { eth_estimateGas } from './eth_estimateGas.ts'
import { eth_gasPrice } from './eth_gasPrice.ts'
import { eth_getBalance } from './eth_getBalance.ts'
import { eth_getBlockByHash } from './eth_getBlockByHash.ts'
import { eth_getBlockByNumber } from './eth_getBlockByNumber.ts'
import { eth_getBlockTransactionCountByHash } from './eth_getBlockTransactionCountByHash.ts'
import { eth_getBlockTransactionCountByNumber } from './eth_getBlockTransactionCountByNumber.ts'
import { eth_getCode } from './eth_getCode.ts'
import { eth_getLogs } from './eth_getLogs.ts'
import { eth_getStorageAt } from './eth_getStorageAt.ts'
import { eth_getTransactionByBlockHashAndIndex } from './eth_getTransactionByBlockHashAndIndex.ts'
import { eth_getTransactionByBlockNumberAndIndex } from './eth_getTransactionByBlockNumberAndIndex.ts'
import { eth_getTransactionByHash } from './eth_getTransactionByHash.ts'
import { eth_getTransactionCount } from './eth_getTransactionCount.ts'
import { eth_getTransactionLogs } from './eth_getTransactionLogs.ts'
import { eth_getTransactionReceipt } from './eth_getTransactionReceipt.ts'
import { eth_getUncleCountByBlockHash } from './eth_getUncleCountByBlockHash.ts'
import { eth_getUncleCountByBlockNumber } from './eth_getUncleCountByBlockNumber.ts'
import { net_listening } from './net_listening.ts'
import { eth_getUncleByBlockHashAndIndex } from './eth_getUncleByBlockHashAndIndex.ts'
import { eth_getUncleByBlockNumberAndIndex } from './eth_getUncleByBlockNumberAndIndex.ts'
import { debug_getRawTransaction, eth_getRawTransactionByHash } from './eth_getRawTransactionByHash.ts'
import { eth_getRawTransactionByBlockHashAndIndex } from './eth_getRawTransactionByBlockHashAndIndex.ts'
import { eth_getRawTransactionByBlockNumberAndIndex } from './eth_getRawTransactionByBlockNumberAndIndex.ts'
import { eth_getBlockReceipts } from './eth_getBlockReceipts.ts'
import { eth_getHeaderByNumber } from './eth_getHeaderByNumber.ts'
import { ots_getApiLevel } from './ots_getApiLevel.ts'
import { erigon_getHeaderByNumber } from './erigon_getHeaderByNumber.ts'
import { ots_hasCode } from './ots_hasCode.ts'
import { ots_getBlockDetails } from './ots_getBlockDetails.ts'
import { ots_getBlockDetailsByHash } from './ots_getBlockDetailsByHash.ts'
import { ots_getTransactionError } from './ots_getTransactionError.ts'
import { ots_getBlockTransactions } from './ots_getBlockTransactions.ts'
import { ots_searchTransactionsBefore } from './ots_searchTransactionsBefore.ts'
import { ots_searchTransactionsAfter } from './ots_searchTransactionsAfter.ts'
import { ots_getContractCreator } from './ots_getContractCreator.ts'
import { ots_getInternalOperations } from './ots_getInternalOperations.ts'
import { ots_traceTransaction } from './ots_traceTransaction.ts'
import { ots_getTransactionBySenderAndNonce } from './ots_getTransactionBySenderAndNonce.ts'
import { eth_getHeaderByHash } from './eth_getHeaderByHash.ts'
import { eth_getTransactionBySenderAndNonce } from './eth_getTransactionBySenderAndNonce.ts'
import { eth_getAccount } from './eth_getAccount.ts'
import { eth_createAccessList } from './eth_createAccessList.ts'
import { eth_getProof } from './eth_getProof.ts'
import { eth_sendUnsignedTransaction } from './eth_sendUnsignedTransaction.ts'
import { eth_fillTransaction } from './eth_fillTransaction.ts'
import { eth_signTypedData_v3 } from './eth_signTypedData_v3.ts'
import { eth_signTypedData } from './eth_signTypedData.ts'
import { debug_getRawReceipts } from './debug_getRawReceipts.ts'
import { debug_getRawHeader } from './debug_getRawHeader.ts'
import { debug_getRawBlock } from './debug_getRawBlock.ts'
import { debug_executionWitness } from './debug_executionWitness.ts'
import { eth_sendRawTransactionSync } from './eth_sendRawTransactionSync.ts'
import { eth_sendTransactionSync } from './eth_sendTransactionSync.ts'
import { eth_hashrate } from './eth_hashrate.ts'
import { eth_mining } from './eth_mining.ts'
import { eth_pendingTransactions } from './eth_pendingTransactions.ts'
import { eth_pendingTransactionsByHash } from './eth_pendingTransactionsByHash.ts'
import { eth_protocolVersion } from './eth_protocolVersion.ts'
import { eth_sendRawTransaction } from './eth_sendRawTransaction.ts'
import { eth_sendRawTransactionConditional } from './eth_sendRawTransactionConditional.ts'
import { eth_callBundle } from './eth_callBundle.ts'
import { eth_simulateV1 } from './eth_simulateV1.ts'
import { eth_callMany } from './eth_callMany.ts'
import { eth_sendTransaction } from './eth_sendTransaction.ts'
import { eth_resend } from './eth_resend.ts'
import { eth_syncing } from './eth_syncing.ts'
import { eth_newFilter } from './eth_newFilter.ts'
import { eth_newBlockFilter } from './eth_newBlockFilter.ts'
import { eth_newPendingTransactionFilter } from './eth_newPendingTransactionFilter.ts'
import { eth_getFilterChanges } from './eth_getFilterChanges.ts'
import { eth_getFilterLogs } from './eth_getFilterLogs.ts'
import { eth_uninstallFilter } from './eth_uninstallFilter.ts'
import { eth_networkId, net_version } from './net_version.ts'
import { eth_config } from './eth_config.ts'
import { web3_clientVersion } from './web3_clientVersion.ts'
import { web3_sha3 } from './web3_sha3.ts'
import { eth_subscribe } from './eth_subscribe.ts'
import { eth_unsubscribe } from './eth_unsubscribe.ts'
import { txpool_status } from './txpool_status.ts'
import { txpool_content } from './txpool_content.ts'
import { txpool_contentFrom } from './txpool_contentFrom.ts'
import { txpool_inspect } from './txpool_inspect.ts'
import { hardhat_dropTransaction } from './hardhat_dropTransaction.ts'
import { anvil_dropAllTransactions, debug_clearTxpool, hardhat_dropAllTransactions } from './anvil_dropAllTransactions.ts'
import { eth_getAccountInfo } from './eth_getAccountInfo.ts'
import { eth_getStorageValues } from './eth_getStorageValues.ts'
import { eth_baseFee } from './eth_baseFee.ts'
import { debug_getRawTransactions } from './debug_getRawTransactions.ts'
import { anvil_dropTransaction } from './anvil_dropTransaction.ts'
import { anvil_reset } from './anvil_reset.ts'
import { anvil_removePoolTransactions } from './anvil_removePoolTransactions.ts'
import { hardhat_reset } from './hardhat_reset.ts'
import { eth_feeHistory } from './eth_feeHistory.ts'
import { eth_maxPriorityFeePerGas } from './eth_maxPriorityFeePerGas.ts'
import { anvil_getAutomine, hardhat_getAutomine } from './hardhat_getAutomine.ts'
import { eth_sign } from './eth_sign.ts'
import { personal_sign } from './personal_sign.ts'
import { eth_signTypedData_v4 } from './eth_signTypedData_v4.ts'
import { eth_signTransaction } from './eth_signTransaction.ts'

/** The method table, with its names as a type (rpc/schema.ts lists the same names; test/types.test-d.ts checks it). */
const table = {
  // The spec's table.
  net_version,
  eth_networkId,
  eth_config,
  eth_chainId,
  eth_blockNumber,
  eth_getBalance,
  eth_protocolVersion,
  eth_syncing,
  eth_gasPrice,
  eth_getStorageAt,
  eth_getTransactionCount,
  eth_getBlockTransactionCountByHash,
  eth_getBlockTransactionCountByNumber,
  eth_getCode,
  eth_getTransactionLogs,
  eth_sendRawTransaction,
  eth_sendRawTransactionConditional,
  eth_callBundle,
  eth_simulateV1,
  eth_callMany,
  eth_call,
  eth_estimateGas,
  debug_traceTransaction,
  debug_traceBlockByNumber,
  debug_traceBlockByHash,
  debug_traceBlock,
  trace_transaction,
  trace_transactionOpcodeGas,
  trace_blockOpcodeGas,
  debug_accountInfoAt,
  debug_getModifiedAccountsByNumber,
  debug_codeByHash,
  debug_dbGet,
  debug_freeOSMemory,
  trace_get,
  trace_block,
  trace_replayTransaction,
  trace_filter,
  trace_replayBlockTransactions,
  trace_call,
  trace_callMany,
  trace_rawTransaction,
  debug_traceCall,
  eth_getBlockByNumber,
  eth_getBlockByHash,
  eth_getTransactionByHash,
  eth_getTransactionByBlockHashAndIndex,
  eth_getTransactionByBlockNumberAndIndex,
  eth_getTransactionReceipt,
  eth_pendingTransactions,
  eth_pendingTransactionsByHash,
  // Beyond the spec: what wallets and contract test suites call.
  eth_accounts,
  eth_requestAccounts,
  eth_sendTransaction,
  eth_resend,
  eth_getLogs,
  eth_newFilter,
  eth_newBlockFilter,
  eth_newPendingTransactionFilter,
  eth_getFilterChanges,
  eth_getFilterLogs,
  eth_uninstallFilter,
  eth_coinbase,
  eth_mining,
  eth_hashrate,
  eth_getUncleCountByBlockHash,
  eth_getUncleCountByBlockNumber,
  net_listening,
  eth_getUncleByBlockHashAndIndex,
  eth_getUncleByBlockNumberAndIndex,
  eth_getRawTransactionByHash,
  debug_getRawTransaction,
  eth_getRawTransactionByBlockHashAndIndex,
  eth_getRawTransactionByBlockNumberAndIndex,
  eth_getBlockReceipts,
  eth_getHeaderByNumber,
  ots_getApiLevel,
  erigon_getHeaderByNumber,
  ots_hasCode,
  ots_getBlockDetails,
  ots_getBlockDetailsByHash,
  ots_getTransactionError,
  ots_getBlockTransactions,
  ots_searchTransactionsBefore,
  ots_searchTransactionsAfter,
  ots_getContractCreator,
  ots_getInternalOperations,
  ots_traceTransaction,
  ots_getTransactionBySenderAndNonce,
  eth_getHeaderByHash,
  eth_getTransactionBySenderAndNonce,
  eth_getAccount,
  eth_getAccountInfo,
  eth_getStorageValues,
  eth_baseFee,
  eth_createAccessList,
  eth_getProof,
  eth_sendUnsignedTransaction,
  eth_fillTransaction,
  eth_signTypedData_v3,
  eth_signTypedData,
  debug_getRawReceipts,
  debug_getRawHeader,
  debug_getRawBlock,
  debug_executionWitness,
  debug_getRawTransactions,
  eth_sendRawTransactionSync,
  eth_sendTransactionSync,
  web3_clientVersion,
  web3_sha3,
  eth_feeHistory,
  eth_maxPriorityFeePerGas,
  // Push subscriptions (WebSocket and the in-process provider) and the pool, as go-ethereum serves them.
  eth_subscribe,
  eth_unsubscribe,
  txpool_status,
  txpool_content,
  txpool_contentFrom,
  txpool_inspect,
  eth_sign,
  personal_sign,
  eth_signTypedData_v4,
  eth_signTransaction,
  // Test-harness controls, under the names Hardhat, Anvil and Ganache helpers call;
  // each alias (anvil_setBalance for hardhat_setBalance, …) is declared beside the method it runs.
  evm_snapshot,
  dualnet_gasSnapshot,
  dualnet_coverage,
  dualnet_gasReport,
  evm_revert,
  evm_mine,
  evm_increaseTime,
  evm_setNextBlockTimestamp,
  evm_setAutomine,
  evm_setIntervalMining,
  hardhat_getAutomine,
  anvil_getAutomine,
  hardhat_mine,
  anvil_mine,
  hardhat_setBalance,
  anvil_setBalance,
  tenderly_setBalance,
  hardhat_setCode,
  anvil_setCode,
  hardhat_setStorageAt,
  anvil_setStorageAt,
  hardhat_setNonce,
  anvil_setNonce,
  evm_setBlockGasLimit,
  anvil_setBlockGasLimit,
  hardhat_setCoinbase,
  anvil_setCoinbase,
  hardhat_setNextBlockBaseFeePerGas,
  anvil_setNextBlockBaseFeePerGas,
  hardhat_setPrevRandao,
  hardhat_impersonateAccount,
  anvil_impersonateAccount,
  hardhat_stopImpersonatingAccount,
  anvil_stopImpersonatingAccount,
  hardhat_dropTransaction,
  anvil_dropTransaction,
  anvil_dropAllTransactions,
  anvil_removePoolTransactions,
  hardhat_reset,
  anvil_reset,
  anvil_setBlockTimestampInterval,
  anvil_removeBlockTimestampInterval,
  anvil_dumpState,
  hardhat_dumpState,
  anvil_loadState,
  hardhat_loadState,
  dev_setMainBalance,
  // Controls under every name the clients use (issue 34 item 4): Anvil's, Hardhat's and Ganache's.
  anvil_snapshot,
  anvil_revert,
  anvil_increaseTime,
  anvil_setNextBlockTimestamp,
  anvil_setAutomine,
  anvil_setIntervalMining,
  anvil_getIntervalMining,
  anvil_setTime,
  evm_setTime,
  anvil_getGenesisTime,
  anvil_getLastBlockWallTime,
  evm_mine_detailed,
  anvil_mine_detailed,
  anvil_nodeInfo,
  anvil_metadata,
  hardhat_metadata,
  anvil_addBalance,
  hardhat_addBalance,
  tenderly_addBalance,
  anvil_autoImpersonateAccount,
  hardhat_autoImpersonateAccount,
  hardhat_dropAllTransactions,
  debug_clearTxpool,
  anvil_impersonateSignature,
  anvil_setChainId,
  anvil_setNextBlockPrevRandao,
  anvil_setRpcUrl,
  anvil_rollback,
  anvil_reorg,
  evm_setAccountBalance,
  evm_setAccountNonce,
  evm_setAccountCode,
  evm_setAccountStorageAt,
  miner_start,
  miner_stop,
  anvil_setMinGasPrice,
  hardhat_setMinGasPrice,
  anvil_setLoggingEnabled,
  hardhat_setLoggingEnabled,
  anvil_dealERC20,
  anvil_setERC20Balance,
  hardhat_dealERC20,
  anvil_setERC20Allowance,
} satisfies Record<string, RpcMethodDeclaration>

/** The name of every method in the table. */
export type ServedMethodName = keyof typeof table

/** Every JSON-RPC method the devnet serves, by name. */
export const rpcMethods: Readonly<Record<string, RpcMethodDeclaration>> = Object.freeze(table)
