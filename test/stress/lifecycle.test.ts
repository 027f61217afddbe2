/**
 * Long suites, each in a child process run with `node --expose-gc` (via tsx's loader)
 * so that heap figures follow a real garbage collection and nothing else shares the heap:
 *
 * - 1,000 devnets created and closed in one process, every other one listening and
 *   answered over HTTP on both servers: no handle left open, heap growth after GC
 *   under 8 MiB (measured: about 1.5 MiB, JIT and module caches, not per devnet:
 *   2,000 devnets grow it no more than 1,000).
 * - one devnet mining 20,000 blocks of one transfer each: the heap after GC stays under
 *   160 MiB (measured: about 5 KiB retained per block, blocks and records being kept),
 *   and grows linearly (the last quarter no more than 1.5 times the first).
 */
import { execFile } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'

const CHILD = fileURLToPath(new URL('./lifecycle-child.ts', import.meta.url))

async function measure(mode: 'devnets' | 'blocks', count: number): Promise<Record<string, unknown>> {
  const { stdout } = await promisify(execFile)(process.execPath, ['--expose-gc', '--import', 'tsx', CHILD, mode, String(count)], {
    cwd: fileURLToPath(new URL('../..', import.meta.url)),
    maxBuffer: 1024 * 1024,
  })
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as Record<string, unknown>
}

describe('long suites', () => {
  it('1,000 devnets created and closed (half listening): no open handles, bounded heap growth', async () => {
    const figures = await measure('devnets', 1000)
    console.log(
      `[lifecycle] ${figures.count} devnets in ${figures.ms} ms; heap after GC ${figures.heapBeforeMiB} MiB before, ${figures.heapAfterMiB} MiB after (+${figures.heapGrowthMiB} MiB); handles before ${JSON.stringify(figures.handlesBefore)}, after ${JSON.stringify(figures.handlesAfter)}`,
    )
    expect(figures.handlesAfter).toEqual(figures.handlesBefore)
    expect(figures.heapGrowthMiB as number).toBeLessThan(8)
  })

  it('20,000 blocks with transactions: heap within 160 MiB, growing linearly', async () => {
    const figures = (await measure('blocks', 20_000)) as { ms: number; heapStartMiB: number; samples: { blocks: number; heapMiB: number; rssMiB: number }[] }
    const { samples } = figures
    console.log(
      `[lifecycle] 20,000 blocks in ${figures.ms} ms (${((20_000 / figures.ms) * 1000).toFixed(0)} tx/s); heap after GC ${figures.heapStartMiB} MiB at start, then ${samples.map((s) => `${s.heapMiB} MiB (rss ${s.rssMiB}) at ${s.blocks}`).join(', ')}`,
    )
    const last = samples.at(-1)!
    expect(last.heapMiB).toBeLessThan(160)
    const first = samples[0]!.heapMiB - figures.heapStartMiB
    const lastQuarter = last.heapMiB - samples.at(-2)!.heapMiB
    expect(lastQuarter).toBeLessThan(first * 1.5)
    console.log(`[lifecycle] retained per block: ${(((last.heapMiB - figures.heapStartMiB) * 1024) / 20_000).toFixed(2)} KiB`)
  })
})
