/**
 * The explorer page's script and style sheet. The package ships them built
 * (`npm run build` writes dist/explorer-page/ with bundle.ts); run from src/ (tests,
 * `npm start`), there is no build, and they are bundled from src/explorer/page/ on
 * first request with esbuild, a devDependency a clone has after `npm ci`. Either way
 * once per process.
 */
import { readFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import type { ExplorerAssets } from './bundle.ts'

export type { ExplorerAssets } from './bundle.ts'

/** The directory name of the built files, beside the bundle's chunks (dist/explorer-page/). */
export const BUILT_DIRECTORY = 'explorer-page'

let loading: Promise<ExplorerAssets> | undefined

/** The page's files (built, or bundled from source); rejects when neither is there. */
export function explorerAssets(): Promise<ExplorerAssets> {
  loading ??= load().catch((err: unknown) => {
    loading = undefined
    throw err
  })
  return loading
}

async function load(): Promise<ExplorerAssets> {
  // This module is in dist/ or dist/chunks/ once built.
  for (const base of [`./${BUILT_DIRECTORY}/`, `../${BUILT_DIRECTORY}/`]) {
    const dir = new URL(base, import.meta.url)
    const built = await Promise.all([readFile(new URL('app.js', dir), 'utf8'), readFile(new URL('app.css', dir), 'utf8')]).catch(() => undefined)
    if (built !== undefined) return { script: built[0], style: built[1] }
  }
  if (!import.meta.url.endsWith('.ts')) throw new Error(`no ${BUILT_DIRECTORY}/ beside ${fileURLToPath(import.meta.url)} (npm run build writes it)`)
  const { bundleExplorerPage } = await import('./bundle.ts')
  return bundleExplorerPage()
}
