/**
 * go-ethereum's 4byteTracer (eth/tracers/native/4byte.go): counts the calls by
 * selector and call-data size, as `{ "0x<4-byte selector>-<bytes of data after it>":
 * count }`. Counted: the transaction's own call and every CALL, CALLCODE,
 * DELEGATECALL and STATICCALL with at least 4 bytes of input, except calls to
 * precompiles (Istanbul's 0x01..0x09); contract creations are not (their input is
 * code, not a call).
 */
import { toHex } from '../../util/hex.ts'
import { defineTracer } from './definition.ts'
import { listen, type EvmEvents, type Tracer } from './tracer.ts'

/** `"0x<selector>-<size>"` to the number of calls with it (go-ethereum's `map[string]int`). */
export type FourByteResult = Record<string, number>

/** Istanbul's precompiles: addresses 0x01..0x09 (go-ethereum `PrecompiledAddressesIstanbul`). */
function isPrecompile(address: Uint8Array): boolean {
  for (let i = 0; i < address.length - 1; i++) if (address[i] !== 0) return false
  const last = address[address.length - 1] ?? 0
  return last >= 1 && last <= 9
}

/** The 4byteTracer; one instance per trace. */
export class FourByteTracer implements Tracer<FourByteResult> {
  readonly #ids: FourByteResult = {}

  attach(events: EvmEvents): () => void {
    return listen(events, {
      step: () => {},
      beforeMessage: (message) => {
        // Creations have no callee; inputs shorter than a selector name no method.
        // A DELEGATECALL's or CALLCODE's callee is its code address (geth's `to`), not the running contract ethereumjs puts in `to`.
        if (message.to === undefined || message.data.length < 4 || isPrecompile((message.codeAddress ?? message.to).bytes)) return
        const key = `${toHex(message.data.subarray(0, 4))}-${message.data.length - 4}`
        this.#ids[key] = (this.#ids[key] ?? 0) + 1
      },
      afterMessage: () => {},
    })
  }

  result(): FourByteResult {
    return { ...this.#ids }
  }
}

/** The 4byteTracer's declaration (registry.ts): `tracer: '4byteTracer'`, no config (ignored, as geth does), result {@link FourByteResult}. */
export const fourByteTracer = defineTracer({
  name: '4byteTracer',
  config: () => undefined,
  create: () => new FourByteTracer(),
})
