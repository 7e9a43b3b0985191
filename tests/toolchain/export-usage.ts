// Who uses each export of src/ (issue 34 item 6): every export of every file, and the files that import it —
// from src/ itself, from tests/, or from the tools beside them (bench/, scripts/, build.ts). It reads the syntax
// with TypeScript's parser (no type checking), so multi-line export lists, `type` imports, re-exports,
// namespace imports and `import("x")` types are all seen. A namespace import, `export *` or a dynamic import
// counts as a use of every export of the file it names: such a use cannot be told apart by name.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import ts from "typescript";

export interface ExportUse {
  /** The exporting file, relative to the project root ("src/…"). */
  file: string;
  /** The exported name ("default" for a default export). */
  name: string;
  /** The files (relative to the project root) that import this name, or the whole module. */
  importers: string[];
  /** Whether the name is used in its own file besides being declared (then the export alone may go). */
  usedInOwnFile: boolean;
}

export interface ExportReport {
  exports: ExportUse[];
  /** Every file of src/ that some other file imports, with those importers. */
  fileImporters: Map<string, string[]>;
  /** Relative specifiers that name no file: a reader fault, never silently skipped. */
  unresolved: string[];
}

/** Where the code that may import src/ lives, relative to the project root. */
export const CONSUMER_ROOTS = ["src", "tests", "bench", "scripts", "build.ts"];

const EVERY_EXPORT = "*";
/** `import "./x"`: the file is imported for what evaluating it does, none of its exports. */
const SIDE_EFFECT = "(evaluated)";

function listSources(path: string): string[] {
  const st = statSync(path, { throwIfNoEntry: false });
  if (!st) return [];
  if (st.isFile()) return /\.tsx?$/.test(path) && !path.endsWith(".d.ts") ? [path] : [];
  const out: string[] = [];
  for (const name of readdirSync(path)) {
    if (name === "node_modules") continue;
    out.push(...listSources(join(path, name)));
  }
  return out;
}

function resolveFile(fromFile: string, spec: string): string | null {
  const base = resolve(dirname(fromFile), spec);
  for (const cand of [base, `${base}.ts`, `${base}.tsx`, join(base, "index.ts"), join(base, "index.tsx")]) {
    if (statSync(cand, { throwIfNoEntry: false })?.isFile()) return cand;
  }
  return null;
}

interface FileFacts {
  /** Names this file exports (its own declarations and re-exports). */
  exports: Set<string>;
  /** Imported names by the module specifier they come from (EVERY_EXPORT: the whole module). */
  imports: { spec: string; names: string[] }[];
  /** How often each identifier occurs in the file. */
  identifiers: Map<string, number>;
}

function hasExportModifier(node: ts.Node): boolean {
  return ts.canHaveModifiers(node) && (ts.getModifiers(node) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
}

function hasDefaultModifier(node: ts.Node): boolean {
  return ts.canHaveModifiers(node) && (ts.getModifiers(node) ?? []).some((m) => m.kind === ts.SyntaxKind.DefaultKeyword);
}

function bindingNames(name: ts.BindingName, out: string[]): void {
  if (ts.isIdentifier(name)) out.push(name.text);
  else for (const el of name.elements) if (!ts.isOmittedExpression(el)) bindingNames(el.name, out);
}

export function factsOf(fileName: string, text: string): FileFacts {
  const sf = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, fileName.endsWith("x") ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const facts: FileFacts = { exports: new Set(), imports: [], identifiers: new Map() };
  const specOf = (e: ts.Expression | undefined) => (e && ts.isStringLiteral(e) ? e.text : null);
  for (const st of sf.statements) {
    if (ts.isImportDeclaration(st)) {
      const spec = specOf(st.moduleSpecifier);
      if (spec === null) continue;
      const names: string[] = [];
      const clause = st.importClause;
      if (clause?.name) names.push("default");
      const bindings = clause?.namedBindings;
      if (bindings && ts.isNamespaceImport(bindings)) names.push(EVERY_EXPORT);
      if (bindings && ts.isNamedImports(bindings)) for (const el of bindings.elements) names.push((el.propertyName ?? el.name).text);
      if (!clause) names.push(SIDE_EFFECT);
      facts.imports.push({ spec, names });
    } else if (ts.isExportDeclaration(st)) {
      const spec = specOf(st.moduleSpecifier);
      const clause = st.exportClause;
      if (!clause) {
        // export * from "x": everything of x goes on through this file.
        if (spec !== null) facts.imports.push({ spec, names: [EVERY_EXPORT] });
        continue;
      }
      if (ts.isNamespaceExport(clause)) {
        facts.exports.add(clause.name.text);
        if (spec !== null) facts.imports.push({ spec, names: [EVERY_EXPORT] });
        continue;
      }
      const names: string[] = [];
      for (const el of clause.elements) {
        facts.exports.add(el.name.text);
        names.push((el.propertyName ?? el.name).text);
      }
      if (spec !== null) facts.imports.push({ spec, names });
    } else if (ts.isExportAssignment(st)) {
      facts.exports.add("default");
    } else if (hasExportModifier(st)) {
      if (hasDefaultModifier(st)) facts.exports.add("default");
      else if (ts.isVariableStatement(st)) {
        const names: string[] = [];
        for (const d of st.declarationList.declarations) bindingNames(d.name, names);
        for (const n of names) facts.exports.add(n);
      } else {
        const name = (st as ts.DeclarationStatement).name;
        if (name && ts.isIdentifier(name)) facts.exports.add(name.text);
      }
    }
  }
  const visit = (node: ts.Node): void => {
    if (ts.isIdentifier(node)) facts.identifiers.set(node.text, (facts.identifiers.get(node.text) ?? 0) + 1);
    // import("x") as a call or as a type: the whole module, or the one name a type qualifies.
    if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const spec = specOf(node.arguments[0]);
      if (spec !== null) facts.imports.push({ spec, names: [EVERY_EXPORT] });
    }
    if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      const q = node.qualifier;
      const first = q ? (ts.isIdentifier(q) ? q.text : leftmost(q)) : EVERY_EXPORT;
      facts.imports.push({ spec: node.argument.literal.text, names: [first] });
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return facts;
}

function leftmost(q: ts.QualifiedName): string {
  let n: ts.EntityName = q;
  while (ts.isQualifiedName(n)) n = n.left;
  return n.text;
}

/** Every export of the files under `<root>/src` and who imports it, read from every consumer root. */
export function readExportUsage(root: string): ExportReport {
  const rel = (f: string) => relative(root, f).split("\\").join("/");
  const files = CONSUMER_ROOTS.flatMap((r) => listSources(join(root, r))).sort();
  const facts = new Map<string, FileFacts>();
  for (const f of files) facts.set(f, factsOf(f, readFileSync(f, "utf8")));
  const users = new Map<string, Map<string, Set<string>>>();
  const unresolved: string[] = [];
  for (const [file, fx] of facts) {
    for (const imp of fx.imports) {
      if (!imp.spec.startsWith(".")) continue;
      const target = resolveFile(file, imp.spec);
      if (target === null) {
        unresolved.push(`${rel(file)}: ${imp.spec}`);
        continue;
      }
      if (target === file) continue;
      let byName = users.get(target);
      if (!byName) users.set(target, (byName = new Map()));
      for (const n of imp.names) {
        let set = byName.get(n);
        if (!set) byName.set(n, (set = new Set()));
        set.add(rel(file));
      }
    }
  }
  const fileImporters = new Map<string, string[]>();
  for (const [file, byName] of users) {
    if (!rel(file).startsWith("src/")) continue;
    fileImporters.set(rel(file), [...new Set([...byName.values()].flatMap((s) => [...s]))].sort());
  }
  const out: ExportUse[] = [];
  for (const [file, fx] of facts) {
    if (!rel(file).startsWith("src/")) continue;
    const byName = users.get(file);
    const whole = byName?.get(EVERY_EXPORT) ?? new Set<string>();
    for (const name of fx.exports) {
      const importers = new Set([...whole, ...(byName?.get(name) ?? [])]);
      // Declared once; any further occurrence is a use (or a same-named property: counted as a use, to be safe).
      const usedInOwnFile = (fx.identifiers.get(name) ?? 0) > (name === "default" ? 0 : 1);
      out.push({ file: rel(file), name, importers: [...importers].sort(), usedInOwnFile });
    }
  }
  return { exports: out, fileImporters, unresolved };
}

/** Whether a file is test code (its users do not make an export part of the product). */
export function isTestFile(file: string): boolean {
  return file.startsWith("tests/");
}
