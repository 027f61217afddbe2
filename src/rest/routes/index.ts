/**
 * The REST route table: one module per operation of the spec, named after it, plus
 * the real node's spellings that its SDK calls (reference §1.2, decisions table).
 */
import type { AnyRestRoute } from '../context.ts'
import { get_allowance, get_allowancev2, get_allowancev2_query } from './get_allowance.ts'
import { get_balance } from './get_balance.ts'
import { get_balancev2 } from './get_balancev2.ts'
import { get_blk_by_hash } from './get_blk_by_hash.ts'
import { get_blk_by_height } from './get_blk_by_height.ts'
import { get_blk_hash } from './get_blk_hash.ts'
import { get_blk_height } from './get_blk_height.ts'
import { get_blk_hgt_by_txhash } from './get_blk_hgt_by_txhash.ts'
import { get_blk_txs_by_height } from './get_blk_txs_by_height.ts'
import { get_conn_count } from './get_conn_count.ts'
import { get_contract_state } from './get_contract_state.ts'
import { get_gasprice } from './get_gasprice.ts'
import { get_grantgas, get_grantong } from './get_grantgas.ts'
import { get_mempooltxcount } from './get_mempooltxcount.ts'
import { get_mempooltxstate } from './get_mempooltxstate.ts'
import { get_merkle_proof } from './get_merkle_proof.ts'
import { get_networkid } from './get_networkid.ts'
import { get_sc_event_by_height } from './get_sc_event_by_height.ts'
import { get_smtcode_evts } from './get_smtcode_evts.ts'
import { get_storage } from './get_storage.ts'
import { get_syncstatus, get_syncstatus_node } from './get_syncstatus.ts'
import { get_tx } from './get_tx.ts'
import { get_unboundgas, get_unboundong } from './get_unboundgas.ts'
import { get_version } from './get_version.ts'
import { post_raw_tx } from './post_raw_tx.ts'
import { getAllApi } from './get_all_api.ts'

/** Every REST route, in matching order. */
export const restRoutes = [
  get_conn_count,
  get_blk_txs_by_height,
  get_blk_by_height,
  get_blk_by_hash,
  get_blk_height,
  get_blk_hash,
  get_tx,
  get_storage,
  get_balance,
  get_balancev2,
  get_contract_state,
  get_sc_event_by_height,
  get_smtcode_evts,
  get_blk_hgt_by_txhash,
  get_merkle_proof,
  get_gasprice,
  get_allowance,
  get_allowancev2,
  get_allowancev2_query,
  get_unboundgas,
  get_unboundong,
  get_mempooltxcount,
  get_mempooltxstate,
  get_version,
  get_networkid,
  get_grantgas,
  get_grantong,
  get_syncstatus,
  get_syncstatus_node,
  post_raw_tx,
  getAllApi((): string[] => restRoutes.filter((r) => r.method === 'GET').map((r) => r.path)),
] as const satisfies readonly AnyRestRoute[]

/** The route template of every route of the table. */
export type ServedRestTemplate = (typeof restRoutes)[number]['path']
