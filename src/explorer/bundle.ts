/**
 * Bundles the explorer page from src/explorer/page/ with esbuild (a devDependency):
 * at build time into dist/explorer-page/ (scripts/build.ts), and from src/ on first
 * request (assets.ts). preact, the page's UI library, is bundled into the script, so
 * the user installs nothing and the page loads nothing from elsewhere.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

/** The page's files, as served (assets.ts serves them built, or bundled here from source). */
export interface ExplorerAssets {
  /** The page's ES module, preact bundled in. */
  script: string
  /** Its style sheet. */
  style: string
}

const PAGE = fileURLToPath(new URL('./page/', import.meta.url))

/** The page's script (minified ES module for browsers) and style sheet. */
export async function bundleExplorerPage(): Promise<ExplorerAssets> {
  const { build } = await import('esbuild')
  const result = await build({
    entryPoints: [join(PAGE, 'main.ts')],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    write: false,
    legalComments: 'none',
    logLevel: 'silent',
  })
  const script = result.outputFiles[0]?.text
  if (script === undefined) throw new Error('esbuild wrote no explorer script')
  return { script, style: await readFile(join(PAGE, 'app.css'), 'utf8') }
}

/** Writes the page's files into `dir` (dist/explorer-page/ at build time). */
export async function writeExplorerPage(dir: string): Promise<void> {
  const { script, style } = await bundleExplorerPage()
  await mkdir(dir, { recursive: true })
  await writeFile(join(dir, 'app.js'), script)
  await writeFile(join(dir, 'app.css'), style)
}
