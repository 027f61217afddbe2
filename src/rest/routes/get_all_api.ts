import type { RestRoute } from '../context.ts'

/**
 * GET /api/v1 (the node's getallapi, beyond the spec's table): the GET route
 * templates (reference §1.2). The node lists them in map order; we list them in table order.
 */
export function getAllApi(templates: () => readonly string[]): RestRoute<'/api/v1'> {
  return {
    method: 'GET',
    path: '/api/v1',
    action: 'getallapi',
    fork: { kind: 'local' },
    handle: () => [...templates()],
  }
}
