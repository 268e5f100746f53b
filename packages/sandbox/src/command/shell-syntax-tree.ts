// The parts of mvdan/sh's syntax tree (Go structs exposed by its GopherJS build) that the command
// analysis reads. Go nil pointers arrive as null and slices as arrays; positions are UTF-8 byte
// offsets into the parsed source. Node identity is not stable across reads, so never compare nodes.

export interface ShellPosition {
  Offset(): number;
}

export interface ShellNode {
  Pos(): ShellPosition;
  End(): ShellPosition;
}

export interface ShellLit extends ShellNode {
  readonly Value: string;
}

export interface ShellSglQuoted extends ShellNode {
  readonly Dollar: boolean;
  readonly Value: string;
}

export interface ShellDblQuoted extends ShellNode {
  readonly Dollar: boolean;
  readonly Parts: readonly ShellNode[];
}

export interface ShellExpansion {
  readonly Op: number;
  readonly Word: ShellWord | null;
}

export interface ShellParamExp extends ShellNode {
  readonly Short: boolean;
  readonly Excl: boolean;
  readonly Length: boolean;
  readonly Width: boolean;
  readonly Param: ShellLit | null;
  readonly Index: ShellNode | null;
  readonly Slice: unknown;
  readonly Repl: unknown;
  readonly Names: number;
  readonly Exp: ShellExpansion | null;
}

export interface ShellCmdSubst extends ShellNode {
  readonly Stmts: readonly ShellStmt[];
  readonly Backquotes: boolean;
}

export interface ShellProcSubst extends ShellNode {
  readonly Op: number;
  readonly Stmts: readonly ShellStmt[];
}

export interface ShellWord extends ShellNode {
  readonly Parts: readonly ShellNode[];
}

export interface ShellAssign extends ShellNode {
  readonly Append: boolean;
  readonly Naked: boolean;
  readonly Name: ShellLit | null;
  readonly Value: ShellWord | null;
  readonly Array: ShellNode | null;
}

export interface ShellRedirect extends ShellNode {
  readonly Op: number;
  readonly N: ShellLit | null;
  readonly Word: ShellWord | null;
  readonly Hdoc: ShellWord | null;
}

export interface ShellStmt extends ShellNode {
  readonly Cmd: ShellNode | null;
  readonly Redirs: readonly ShellRedirect[];
  readonly Background: boolean;
  readonly Negated: boolean;
}

export interface ShellCallExpr extends ShellNode {
  readonly Assigns: readonly ShellAssign[];
  readonly Args: readonly ShellWord[];
}

export interface ShellBinaryCmd extends ShellNode {
  readonly Op: number;
  readonly X: ShellStmt;
  readonly Y: ShellStmt;
}

export interface ShellBlock extends ShellNode {
  readonly Stmts: readonly ShellStmt[];
}

export interface ShellFuncDecl extends ShellNode {
  readonly Name: ShellLit;
  readonly Body: ShellStmt;
}

export interface ShellDeclClause extends ShellNode {
  readonly Variant: ShellLit;
  readonly Args: readonly ShellAssign[];
}

export interface ShellWordIter extends ShellNode {
  readonly Name: ShellLit;
  readonly Items: readonly ShellWord[];
}

export interface ShellForClause extends ShellNode {
  readonly Loop: ShellNode;
  readonly Do: readonly ShellStmt[];
}

export interface ShellCStyleLoop extends ShellNode {
  readonly Cond: ShellNode | null;
}

export interface ShellFile extends ShellNode {
  readonly Stmts: readonly ShellStmt[];
}

export interface ShellParser {
  /** Throws a Go `ParseError` object (with an `Error()` method) on invalid input. */
  Parse(source: string, name: string): ShellFile;
}

export interface ShellSyntax {
  NewParser(): ShellParser;
  /** The Go type name without package or pointer, e.g. "CallExpr". */
  NodeType(node: ShellNode): string;
  /** Visits every node depth-first in source order; returning false skips the children. */
  Walk(node: ShellNode, visit: (node: ShellNode | null) => boolean): void;
}

export interface ShellWhileClause extends ShellNode {
  readonly Until: boolean;
  readonly Cond: readonly ShellStmt[];
  readonly Do: readonly ShellStmt[];
}
