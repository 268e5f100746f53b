// Minimal, hand-written types for the GopherJS build of mvdan/sh (mvdan-sh@0.10.1, no types of its
// own), declaring only the three functions the command analysis calls. Nodes are typed as plain
// objects here; their fields are described in `shell-syntax-tree.ts`, which is emitted with the
// package, so no published declaration file refers to this ambient module.
declare module 'mvdan-sh' {
  interface MvdanShellSyntax {
    NewParser(): { Parse(source: string, name: string): object };
    NodeType(node: object): string;
    Walk(node: object, visit: (node: object | null) => boolean): void;
  }
  const mvdanSh: { readonly syntax: MvdanShellSyntax };
  export default mvdanSh;
}
