/**
 * The explorer page's serving (issue 37, src/explorer/serve.ts): `listen({ explorer:
 * true })` serves the shell, script, style sheet and config at `/explorer` on the
 * JSON-RPC server, each with a strict Content-Security-Policy, behind the servers'
 * Host check; without the option those paths are the 404 of any other path. The page
 * in a browser: test/explorer-browser.test.ts.
 */
import { request } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createDevnet, type Devnet, type DevnetUrls } from '../src/index.ts'
import { Reverter } from '../fixtures/index.ts'
import { isLoopback } from '../src/explorer/serve.ts'
import { started, stop, waitFor } from './cli-support.ts'

/** A GET (or `method`) with an explicit Host header, which fetch() cannot send. */
function get(base: string, path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(new URL(path, base), { method, headers }, (res) => {
      let body = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => (body += chunk))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }))
    })
    req.on('error', reject)
    req.end()
  })
}

describe('explorer page served by listen({ explorer: true })', { timeout: 120_000 }, () => {
  let devnet: Devnet
  let urls: DevnetUrls
  beforeAll(async () => {
    devnet = await createDevnet()
    urls = await devnet.listen({ explorer: true, rest: true })
  })
  afterAll(() => devnet.close())

  it('names its URL and serves the shell: no inline script or style, a strict CSP naming the REST origin', async () => {
    expect(urls.explorerUrl).toBe(`${urls.rpcUrl}/explorer`)
    for (const path of ['/explorer', '/explorer/', '/explorer/index.html']) {
      const page = await get(urls.rpcUrl, path)
      expect(page.status).toBe(200)
      expect(page.headers['content-type']).toBe('text/html; charset=utf-8')
      expect(page.body).toContain('<script type="module" src="/explorer/app.js"></script>')
      expect(page.body).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>|<style|\sstyle=|\son\w+=/i)
      const csp = String(page.headers['content-security-policy'])
      expect(csp).toBe(
        `default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self' ${new URL(urls.restUrl!).origin}; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
      )
      expect(page.headers['x-content-type-options']).toBe('nosniff')
    }
  })

  it('serves the bundled script (preact inside, nothing fetched from elsewhere), the style sheet and the config', async () => {
    const script = await get(urls.rpcUrl, '/explorer/app.js')
    expect(script.status).toBe(200)
    expect(script.headers['content-type']).toBe('text/javascript; charset=utf-8')
    expect(script.body.length).toBeGreaterThan(5_000)
    expect(script.body).not.toMatch(/\bimport\s*["'(]|from\s*["']https?:/)
    expect(script.headers['content-security-policy']).toContain("script-src 'self'")
    const style = await get(urls.rpcUrl, '/explorer/app.css')
    expect(style.status).toBe(200)
    expect(style.headers['content-type']).toBe('text/css; charset=utf-8')
    const config = await get(urls.rpcUrl, '/explorer/config.json')
    expect(JSON.parse(config.body)).toEqual({ restUrl: urls.restUrl, controls: true })
    const head = await get(urls.rpcUrl, '/explorer/app.js', {}, 'HEAD')
    expect(head.status).toBe(200)
    expect(head.body).toBe('')
    expect(Number(head.headers['content-length'])).toBe(Buffer.byteLength(script.body))
  })

  it('obeys the Host check (403 for a name outside vhosts, as JSON-RPC), 404s other files, and leaves JSON-RPC at / as it was', async () => {
    const rebinding = await get(urls.rpcUrl, '/explorer', { host: 'evil.example:80' })
    expect(rebinding.status).toBe(403)
    expect(rebinding.body).toMatch(/^invalid host specified: evil\.example:80/)
    expect((await get(urls.rpcUrl, '/explorer', { host: 'localhost' })).status).toBe(200)
    expect((await get(urls.rpcUrl, '/explorer/../package.json')).status).toBe(404)
    expect((await get(urls.rpcUrl, '/explorer/secret')).status).toBe(404)
    expect((await get(urls.rpcUrl, '/explorerx')).status).toBe(404)
    expect((await get(urls.rpcUrl, '/explorer', {}, 'POST')).status).toBe(404)
    const answer = await fetch(urls.rpcUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":"eth_chainId"}' })
    expect(await answer.json()).toEqual({ jsonrpc: '2.0', id: 1, result: '0x3039' })
  })

  it('without REST, the config names none and the CSP connects to this origin only', async () => {
    const other = await createDevnet()
    try {
      const u = await other.listen({ explorer: true, rest: false })
      const page = await get(u.rpcUrl, '/explorer')
      expect(page.headers['content-security-policy']).toContain("connect-src 'self'; ")
      expect(JSON.parse((await get(u.rpcUrl, '/explorer/config.json')).body)).toEqual({ restUrl: null, controls: true })
    } finally {
      await other.close()
    }
  })

  it('is not served without the option', async () => {
    const other = await createDevnet()
    try {
      const u = await other.listen()
      expect(u.explorerUrl).toBeUndefined()
      const page = await get(u.rpcUrl, '/explorer')
      expect(page.status).toBe(404)
      expect(JSON.parse(page.body)).toEqual({ message: 'Route GET:/explorer not found', error: 'Not Found', statusCode: 404 })
    } finally {
      await other.close()
    }
  })

  it('dualnet --explorer prints the URL of the page in its banner and serves it; --artifacts names the contracts', async () => {
    const cli = await started(['--rpcport', '0', '--rest', '--restport', '0', '--explorer', '--artifacts', 'fixtures/artifacts'])
    try {
      await waitFor(() => /^Explorer {2}/m.test(cli.output()))
      expect(cli.output()).toMatch(new RegExp(`^Explorer {2}${cli.rpcUrl}/explorer$`, 'm'))
      const config = await get(cli.rpcUrl, '/explorer/config.json')
      expect(JSON.parse(config.body)).toEqual({ restUrl: cli.restUrl, controls: true })
      const at = `0x${'00'.repeat(19)}77`
      const set = await fetch(cli.rpcUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'hardhat_setCode', params: [at, Reverter.deployedBytecode] }),
      })
      expect(((await set.json()) as { result: unknown }).result).toBe(true)
      const contract = await get(cli.rpcUrl, `/explorer/api/contract/${at}`)
      expect(JSON.parse(contract.body)).toMatchObject({ name: 'contracts/Reverter.sol:Reverter' })
    } finally {
      await stop(cli)
    }
  })

  it('shows its controls only when the server listens on loopback', () => {
    for (const host of ['127.0.0.1', '127.1.2.3', '::1', 'localhost']) expect(isLoopback(host), host).toBe(true)
    for (const host of ['0.0.0.0', '::', '192.168.1.2', 'devbox.lan', '127.0.0.1.example']) expect(isLoopback(host), host).toBe(false)
  })
})
