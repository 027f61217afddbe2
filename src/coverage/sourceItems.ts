/**
 * What istanbul counts in a Solidity source, read from solc's AST: statements,
 * functions (and modifiers) with a body, and branches: `if` (two arms, the second
 * the `else` or, without one, the `if` itself, as istanbul reports an `if` without
 * `else`), the conditional operator (`cond-expr`) and `require`/`assert` (two arms at
 * the call, passing and failing, as solidity-coverage reports them). Ranges are solc's
 * byte offsets.
 */
import type { AstNode } from './buildInfo.ts'

/** A byte range of a source: [start, start + length). */
export interface ByteRange {
  readonly start: number
  readonly length: number
}

/** A function or modifier. */
export interface FunctionItem extends ByteRange {
  readonly name: string
  /** Where its name is (the declaration istanbul points at); its whole range when unnamed. */
  readonly decl: ByteRange
}

/** A branch: its node, its kind, and its arms' ranges (an arm without a node of its own has the branch node's range). */
export interface BranchItem extends ByteRange {
  readonly type: 'if' | 'cond-expr' | 'require'
  /** [true arm, false arm]; for `require`/`assert`: [passes, fails]. */
  readonly arms: readonly [ByteRange, ByteRange]
  /** The arms that are nodes of their own (their instructions can be counted); false: the implicit `else`, both arms of `require`. */
  readonly armHasCode: readonly [boolean, boolean]
}

/** The items of one source. */
export interface SourceItems {
  readonly statements: readonly ByteRange[]
  readonly functions: readonly FunctionItem[]
  readonly branches: readonly BranchItem[]
}

/** Statement node types (Solidity's AST, `Statement` subclasses); blocks are not statements of their own. */
const STATEMENTS = new Set([
  'ExpressionStatement',
  'VariableDeclarationStatement',
  'Return',
  'EmitStatement',
  'RevertStatement',
  'IfStatement',
  'ForStatement',
  'WhileStatement',
  'DoWhileStatement',
  'Break',
  'Continue',
  'Throw',
  'InlineAssembly',
  'TryStatement',
])

/** `start:length:source` of a node. */
export function rangeOf(node: AstNode): ByteRange {
  const [start, length] = node.src.split(':').map(Number)
  return { start: start ?? 0, length: length ?? 0 }
}

/** The statements, functions and branches of the source whose AST is `ast`, in source order. */
export function sourceItems(ast: AstNode): SourceItems {
  const statements: ByteRange[] = []
  const functions: FunctionItem[] = []
  const branches: BranchItem[] = []
  visit(ast, (node) => {
    const range = rangeOf(node)
    if (STATEMENTS.has(node.nodeType)) statements.push(range)
    if ((node.nodeType === 'FunctionDefinition' || node.nodeType === 'ModifierDefinition') && isNode(node.body)) {
      const name = typeof node.name === 'string' && node.name !== '' ? node.name : typeof node.kind === 'string' ? node.kind : 'function'
      const nameLocation = typeof node.nameLocation === 'string' ? node.nameLocation.split(':').map(Number) : undefined
      const decl = nameLocation !== undefined && nameLocation[0]! >= 0 && nameLocation[1]! > 0 ? { start: nameLocation[0]!, length: nameLocation[1]! } : range
      functions.push({ ...range, name, decl })
    }
    if (node.nodeType === 'IfStatement' && isNode(node.trueBody)) {
      const other = isNode(node.falseBody) ? rangeOf(node.falseBody) : range
      branches.push({ ...range, type: 'if', arms: [rangeOf(node.trueBody), other], armHasCode: [true, isNode(node.falseBody)] })
    }
    if (node.nodeType === 'Conditional' && isNode(node.trueExpression) && isNode(node.falseExpression)) {
      branches.push({ ...range, type: 'cond-expr', arms: [rangeOf(node.trueExpression), rangeOf(node.falseExpression)], armHasCode: [true, true] })
    }
    if (node.nodeType === 'FunctionCall' && isNode(node.expression) && node.expression.nodeType === 'Identifier' && (node.expression.name === 'require' || node.expression.name === 'assert')) {
      branches.push({ ...range, type: 'require', arms: [range, range], armHasCode: [false, false] })
    }
  })
  const order = (a: ByteRange, b: ByteRange) => a.start - b.start || b.length - a.length
  return { statements: statements.sort(order), functions: functions.sort(order), branches: branches.sort(order) }
}

function isNode(value: unknown): value is AstNode {
  return typeof value === 'object' && value !== null && typeof (value as { nodeType?: unknown }).nodeType === 'string' && typeof (value as { src?: unknown }).src === 'string'
}

/** Calls `f` on `node` and every node below it, parents first, children in field order. */
function visit(node: AstNode, f: (node: AstNode) => void): void {
  f(node)
  for (const value of Object.values(node)) {
    if (Array.isArray(value)) {
      for (const item of value) if (isNode(item)) visit(item, f)
    } else if (isNode(value)) visit(value, f)
  }
}
