// A small reader of the import graph of src/: every `import … from`, `export … from`, bare `import "x"`,
// `import type` and `import("x")` (dynamic or in a type position). Type-only imports count: a type that
// lives in the wrong folder is exactly the upward arrow the layering test exists to catch.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

export interface ImportEdge {
  /** Importing file, relative to the source root, with "/" separators. */
  from: string;
  /** The specifier as written. */
  spec: string;
  /** The resolved file (relative to the root) for a relative specifier; null for a package. */
  to: string | null;
}

/**
 * The code with comments blanked out (strings kept, since the specifiers live in them). Quoted strings end at a
 * newline at the latest: JSX text ("don't") is not a string, and must not swallow the rest of the file.
 */
export function stripComments(src: string): string {
  let out = "";
  let i = 0;
  let lastSignificant = "";
  while (i < src.length) {
    const c = src[i]!;
    const next = src[i + 1];
    if (c === "/" && next === "/") {
      while (i < src.length && src[i] !== "\n") i++;
      continue;
    }
    if (c === "/" && next === "*") {
      const end = src.indexOf("*/", i + 2);
      const stop = end < 0 ? src.length : end + 2;
      out += src.slice(i, stop).replace(/[^\n]/g, " ");
      i = stop;
      continue;
    }
    if (c === '"' || c === "'") {
      let j = i + 1;
      while (j < src.length && src[j] !== c && src[j] !== "\n") j += src[j] === "\\" ? 2 : 1;
      out += src.slice(i, j + 1);
      i = j + 1;
      lastSignificant = c;
      continue;
    }
    if (c === "`") {
      let j = i + 1;
      while (j < src.length && src[j] !== "`") j += src[j] === "\\" ? 2 : 1;
      out += src.slice(i, j + 1).replace(/[^\n]/g, " ");
      i = j + 1;
      lastSignificant = c;
      continue;
    }
    // A regex literal may hold quotes or "//"; it can only start where an expression starts.
    if (c === "/" && (lastSignificant === "" || "(,=:[!&|?{};+-*%<>~^".includes(lastSignificant))) {
      let j = i + 1;
      let inClass = false;
      while (j < src.length && src[j] !== "\n") {
        const d = src[j]!;
        if (d === "\\") j++;
        else if (d === "[") inClass = true;
        else if (d === "]") inClass = false;
        else if (d === "/" && !inClass) break;
        j++;
      }
      out += src.slice(i, j + 1).replace(/[^\n]/g, " ");
      i = j + 1;
      lastSignificant = "/";
      continue;
    }
    if (!/\s/.test(c)) lastSignificant = c;
    out += c;
    i++;
  }
  return out;
}

const STATIC = /\b(?:import|export)\s+(?:type\s+)?(?:[\w$*{}\s,]+?\s+from\s*)?["']([^"'\n]+)["']/g;
const DYNAMIC = /\bimport\s*\(\s*["']([^"'\n]+)["']\s*\)/g;

/** The specifiers a source text imports, in order of appearance (duplicates kept). */
export function specifiersOf(src: string): string[] {
  const code = stripComments(src);
  const found: { at: number; spec: string }[] = [];
  for (const re of [STATIC, DYNAMIC]) {
    re.lastIndex = 0;
    for (let m = re.exec(code); m; m = re.exec(code)) found.push({ at: m.index, spec: m[1]! });
  }
  return found.sort((a, b) => a.at - b.at).map((f) => f.spec);
}

function listSources(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) out.push(...listSources(full));
    else if (/\.tsx?$/.test(name) && !name.endsWith(".d.ts")) out.push(full);
  }
  return out;
}

function resolveFile(fromFile: string, spec: string): string | null {
  const base = resolve(dirname(fromFile), spec);
  for (const cand of [base, `${base}.ts`, `${base}.tsx`, join(base, "index.ts"), join(base, "index.tsx")]) {
    try {
      if (statSync(cand).isFile()) return cand;
    } catch {
      // not this candidate
    }
  }
  return null;
}

export interface ImportGraph {
  files: string[];
  edges: ImportEdge[];
  /** Relative specifiers that name no file: a parser or resolver fault, never silently skipped. */
  unresolved: ImportEdge[];
}

export function readImportGraph(root: string): ImportGraph {
  const files = listSources(root).sort();
  const rel = (f: string) => relative(root, f).split("\\").join("/");
  const edges: ImportEdge[] = [];
  const unresolved: ImportEdge[] = [];
  for (const file of files) {
    for (const spec of specifiersOf(readFileSync(file, "utf8"))) {
      if (!spec.startsWith(".")) {
        edges.push({ from: rel(file), spec, to: null });
        continue;
      }
      const target = resolveFile(file, spec);
      const edge = { from: rel(file), spec, to: target ? rel(target) : null };
      (target ? edges : unresolved).push(edge);
    }
  }
  return { files: files.map(rel), edges, unresolved };
}

/** The folder a file sits in ("." for the root files), the unit of the cycle rule. */
export function folderOf(file: string): string {
  const i = file.lastIndexOf("/");
  return i < 0 ? "." : file.slice(0, i);
}

/**
 * Cycles between files of different folders: for each strongly connected component of the file graph that spans
 * more than one folder, one cycle through it as a readable path (a → b → … → a).
 */
export function crossFolderCycles(graph: ImportGraph): string[][] {
  const adj = new Map<string, string[]>();
  for (const f of graph.files) adj.set(f, []);
  for (const e of graph.edges) if (e.to && e.to !== e.from && adj.has(e.to)) adj.get(e.from)!.push(e.to);
  // Tarjan's algorithm, iterative so a deep chain cannot overflow the stack.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const components: string[][] = [];
  let counter = 0;
  for (const start of graph.files) {
    if (index.has(start)) continue;
    const work: { node: string; i: number }[] = [{ node: start, i: 0 }];
    index.set(start, counter);
    low.set(start, counter++);
    stack.push(start);
    onStack.add(start);
    while (work.length) {
      const top = work[work.length - 1]!;
      const succ = adj.get(top.node)!;
      if (top.i < succ.length) {
        const w = succ[top.i++]!;
        if (!index.has(w)) {
          index.set(w, counter);
          low.set(w, counter++);
          stack.push(w);
          onStack.add(w);
          work.push({ node: w, i: 0 });
        } else if (onStack.has(w)) low.set(top.node, Math.min(low.get(top.node)!, index.get(w)!));
        continue;
      }
      work.pop();
      if (work.length) {
        const parent = work[work.length - 1]!.node;
        low.set(parent, Math.min(low.get(parent)!, low.get(top.node)!));
      }
      if (low.get(top.node) === index.get(top.node)) {
        const comp: string[] = [];
        let w: string;
        do {
          w = stack.pop()!;
          onStack.delete(w);
          comp.push(w);
        } while (w !== top.node);
        if (comp.length > 1) components.push(comp);
      }
    }
  }
  // One shortest cycle per cross-folder edge inside a component, so every wrong arrow shows up, not one per knot.
  const cycles: string[][] = [];
  const seen = new Set<string>();
  for (const comp of components) {
    const inComp = new Set(comp);
    for (const a of comp) {
      for (const b of adj.get(a)!) {
        if (!inComp.has(b) || folderOf(a) === folderOf(b)) continue;
        const cycle = shortestCycle(a, b, inComp, adj);
        const key = [...new Set(cycle)].sort().join(" ");
        if (!seen.has(key)) (seen.add(key), cycles.push(cycle));
      }
    }
  }
  return cycles;
}

/** The shortest cycle a → b → … → a inside one component (breadth-first search from b back to a). */
function shortestCycle(a: string, b: string, inComp: Set<string>, adj: Map<string, string[]>): string[] {
  const prev = new Map<string, string>([[b, b]]);
  const queue = [b];
  while (queue.length && !prev.has(a)) {
    const n = queue.shift()!;
    for (const m of adj.get(n)!) if (inComp.has(m) && !prev.has(m)) (prev.set(m, n), queue.push(m));
  }
  const path: string[] = [];
  for (let n = a; ; n = prev.get(n)!) {
    path.unshift(n);
    if (n === b) break;
  }
  path.unshift(a);
  return path;
}
