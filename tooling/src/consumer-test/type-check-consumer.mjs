// @ts-check
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';

/** @typedef {'nodenext' | 'bundler'} ResolutionMode */

/**
 * @typedef {object} EntryPointExports
 * @property {string} specifier e.g. `@openwork/sandbox/testing`
 * @property {string[]} values exported names that have a runtime value
 * @property {string[]} types exported names that are types only
 */

/** The two ways TypeScript projects resolve packages today. */
export const RESOLUTION_MODES = /** @type {const} */ (['nodenext', 'bundler']);

/**
 * What a strict consumer project compiles with: `strict`, no `skipLibCheck` (so every declaration
 * file we ship is checked), and Node's types only when the package declares `@types/node` as a peer.
 * A package without that peer is checked with the DOM library instead, which proves that its types
 * need nothing from Node (the packaging rules).
 * @param {ResolutionMode} mode
 * @param {{ nodeTypes: boolean }} environment
 * @returns {ts.CompilerOptions}
 */
export function consumerCompilerOptions(mode, { nodeTypes }) {
  return {
    strict: true,
    skipLibCheck: false,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    lib: nodeTypes ? ['lib.es2023.d.ts'] : ['lib.es2023.d.ts', 'lib.dom.d.ts'],
    types: nodeTypes ? ['node'] : [],
    ...(mode === 'nodenext'
      ? { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext }
      : { module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler }),
  };
}

/**
 * The names every entry point exports, as a consumer's TypeScript sees them from `projectDirectory`.
 * @param {string} projectDirectory
 * @param {readonly string[]} specifiers
 * @param {ts.CompilerOptions} options
 * @returns {{ entryPoints: EntryPointExports[], problems: string[], program: ts.Program }} the program
 *   is handed to `typeCheck`, which reuses its parsed files
 */
export function listPublicExports(projectDirectory, specifiers, options) {
  const probe = join(projectDirectory, 'list-entry-points.mts');
  writeFileSync(probe, specifiers.map((specifier, index) => `import * as entry${index} from ${JSON.stringify(specifier)};\nexport { entry${index} };\n`).join(''));
  const program = ts.createProgram([probe], options);
  const checker = program.getTypeChecker();
  const source = /** @type {ts.SourceFile} */ (program.getSourceFile(probe));
  /** @type {EntryPointExports[]} */ const entryPoints = [];
  /** @type {string[]} */ const problems = [];
  for (const statement of source.statements) {
    if (!ts.isImportDeclaration(statement)) continue;
    const specifier = /** @type {ts.StringLiteral} */ (statement.moduleSpecifier).text;
    const moduleSymbol = checker.getSymbolAtLocation(statement.moduleSpecifier);
    if (moduleSymbol === undefined) {
      problems.push(`${specifier} cannot be resolved`);
      continue;
    }
    /** @type {string[]} */ const values = [];
    /** @type {string[]} */ const types = [];
    for (const symbol of checker.getExportsOfModule(moduleSymbol)) {
      const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
      (target.flags & ts.SymbolFlags.Value ? values : types).push(symbol.getName());
    }
    if (values.length + types.length === 0) problems.push(`${specifier} exports nothing`);
    entryPoints.push({ specifier, values: values.sort(), types: types.sort() });
  }
  return { entryPoints, problems, program };
}

/**
 * A module that imports every public export by name (values as values, types with `type`), so the
 * type check proves each one resolves and its declarations compile.
 * @param {readonly EntryPointExports[]} entryPoints
 */
export function importEveryExport(entryPoints) {
  const lines = [];
  /** @type {string[]} */ const reexports = [];
  entryPoints.forEach(({ specifier, values, types }, index) => {
    const names = [
      ...values.map((name) => `${name} as entry${index}$${name}`),
      ...types.map((name) => `type ${name} as entry${index}$${name}`),
    ];
    lines.push(`import { ${names.join(', ')} } from ${JSON.stringify(specifier)};`);
    reexports.push(...values.map((name) => `entry${index}$${name}`), ...types.map((name) => `type entry${index}$${name}`));
  });
  lines.push(`export { ${reexports.join(', ')} };`);
  return `${lines.join('\n')}\n`;
}

/**
 * Type-checks `files` as a consumer project would and returns TypeScript's messages about the
 * files that are ours: `files` themselves and every declaration file of `packageName` the program
 * reaches. That is what `skipLibCheck: false` adds for our package. The declarations of third-party
 * packages (zod, @types/node) are read and used, but their own internals are not re-checked for
 * every package and project: that would cost ten seconds of CPU per program and prove nothing
 * about our package.
 * @param {string} projectDirectory
 * @param {readonly string[]} files absolute
 * @param {ts.CompilerOptions} options
 * @param {string} packageName the package under test
 * @param {ts.Program} [oldProgram] a program over the same project whose parsed files may be reused
 * @returns {string[]}
 */
export function typeCheck(projectDirectory, files, options, packageName, oldProgram) {
  const program = ts.createProgram({ rootNames: files, options, ...(oldProgram ? { oldProgram } : {}) });
  const roots = new Set(files);
  const ownDeclarations = `/node_modules/${packageName}/`;
  const ours = program
    .getSourceFiles()
    .filter((file) => roots.has(file.fileName) || file.fileName.includes(ownDeclarations));
  const diagnostics = [
    ...program.getOptionsDiagnostics(),
    ...program.getGlobalDiagnostics(),
    ...ours.flatMap((file) => [...program.getSyntacticDiagnostics(file), ...program.getSemanticDiagnostics(file)]),
  ];
  /** @type {ts.FormatDiagnosticsHost} */
  const host = {
    getCanonicalFileName: (fileName) => fileName,
    getCurrentDirectory: () => projectDirectory,
    getNewLine: () => '\n',
  };
  return diagnostics.map((diagnostic) => ts.formatDiagnostic(diagnostic, host).trim());
}

/**
 * Plain JavaScript for a TypeScript example, to run it with Node once it type-checks.
 * @param {string} code
 */
export function stripTypes(code) {
  return ts.transpileModule(code, {
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
  }).outputText;
}
