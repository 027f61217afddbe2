/**
 * loadFixture, as Hardhat's network helpers define it: the first call with a fixture
 * function runs it and snapshots the result; every later call with the same function
 * reverts to that snapshot and returns the same value. Our snapshots can be restored
 * any number of times, so no re-snapshot is needed after each revert.
 */
import { DualnetError, type DualnetErrorCode } from '../errors/base.ts'
import type { Devnet } from './types.ts'

/** A fixture: deploys and prepares, resolves to whatever the tests need. */
export type Fixture<T> = (devnet: Devnet) => Promise<T>

/** A fixture function was not a named, reusable function. */
export class FixtureAnonymousFunctionError extends DualnetError {
  override name = 'FixtureAnonymousFunctionError'
  override readonly dualnetCode: DualnetErrorCode = 'DUALNET_ERR_FIXTURE_ANONYMOUS_FUNCTION'
  constructor() {
    super('loadFixture takes a function declared once (not an inline arrow), so that later calls can find its snapshot')
  }
}

const loaded = new WeakMap<Devnet, Map<Fixture<unknown>, { snapshot: string; value: unknown }>>()

/**
 * Runs `fixture` on `devnet` once and snapshots the result; later calls revert to that
 * snapshot (O(changes since)) and resolve to the same value. Throws
 * {@link FixtureAnonymousFunctionError} for an anonymous function.
 */
export async function loadFixture<T>(devnet: Devnet, fixture: Fixture<T>): Promise<T> {
  if (fixture.name === '') throw new FixtureAnonymousFunctionError()
  let fixtures = loaded.get(devnet)
  if (fixtures === undefined) {
    fixtures = new Map()
    loaded.set(devnet, fixtures)
  }
  const known = fixtures.get(fixture as Fixture<unknown>)
  if (known !== undefined && (await devnet.revert(known.snapshot, { keep: true }))) return known.value as T
  const value = await fixture(devnet)
  fixtures.set(fixture as Fixture<unknown>, { snapshot: await devnet.snapshot(), value })
  return value
}
