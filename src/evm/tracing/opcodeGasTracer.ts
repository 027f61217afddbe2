/**
 * Gas by opcode, as reth's `trace_transactionOpcodeGas` and `trace_blockOpcodeGas`
 * answer it (revm-inspectors' OpcodeGasInspector; alloy rpc-types-trace opcode.rs
 * `OpcodeGas`): for each opcode the transaction executed, in the order first executed,
 * how many times it ran and the gas those steps cost. A step's cost is the struct
 * logger's `gasCost`: static plus dynamic gas (memory expansion, cold access, the
 * value-transfer and new-account charges of a call), without the gas a call or create
 * hands to its callee, whose own opcodes count it. For opcodes with a constant cost,
 * `gasUsed` is that cost times `count`.
 */
import type { RpcOpcodeGas } from '../../core/rpcObjects.ts'
import { listen, type EvmEvents, type Tracer } from './tracer.ts'

/** Tallies gas by opcode over one transaction; one instance per transaction. */
export class OpcodeGasTracer implements Tracer<RpcOpcodeGas[]> {
  readonly #tally = new Map<string, { count: number; gas: bigint }>()

  attach(events: EvmEvents): () => void {
    return listen(events, {
      step: (step) => {
        const entry = this.#tally.get(step.opcode.name)
        if (entry === undefined) this.#tally.set(step.opcode.name, { count: 1, gas: step.opcode.dynamicFee })
        else {
          entry.count++
          entry.gas += step.opcode.dynamicFee
        }
      },
      beforeMessage: () => {},
      afterMessage: () => {},
    })
  }

  result(): RpcOpcodeGas[] {
    return [...this.#tally].map(([opcode, { count, gas }]) => ({ opcode, count, gasUsed: Number(gas) }))
  }
}
