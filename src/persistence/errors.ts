/**
 * Errors of persistence: a database that cannot hold or give back this chain, and
 * state documents that cannot be loaded. Each says what is wrong in one sentence;
 * nothing is written when one is thrown.
 */
import { DualnetError, type DualnetErrorCode } from '../errors/base.ts'

/** A database or state document the devnet refuses; `cause` holds the underlying error, if any. */
export class PersistenceError extends DualnetError {
  override name = 'PersistenceError'
  override readonly dualnetCode: DualnetErrorCode = 'DUALNET_ERR_PERSISTENCE'
}

/** The database holds a chain made with other chain-shaping options (chain id, bookkeeper key, hardfork, unbound gas). */
export class ChainMismatchError extends PersistenceError {
  override name = 'ChainMismatchError'
  override readonly dualnetCode: DualnetErrorCode = 'DUALNET_ERR_CHAIN_MISMATCH'
}

/** The database or document was written in a schema version this devnet does not read. */
export class UnsupportedVersionError extends PersistenceError {
  override name = 'UnsupportedVersionError'
  override readonly dualnetCode: DualnetErrorCode = 'DUALNET_ERR_UNSUPPORTED_VERSION'
}

/** The database cannot be opened, is not a dualnet database, or holds an entry that does not decode. */
export class CorruptDatabaseError extends PersistenceError {
  override name = 'CorruptDatabaseError'
  override readonly dualnetCode: DualnetErrorCode = 'DUALNET_ERR_CORRUPT_DATABASE'
}
