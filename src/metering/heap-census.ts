// A heap census on demand (issue 30 item 12), for the soak and for an operator chasing memory: with
// SVC_HEAP_CENSUS_FILE set, SIGUSR2 runs a full collection and writes the JavaScript heap's object counts by
// type (bun:jsc heapStats) and the process's RSS to that file, atomically. Off unless the variable is set:
// the census walks the whole heap and stops the event loop for as long as that takes.
import { heapStats } from "bun:jsc";
import { renameSync, writeFileSync } from "node:fs";

export interface HeapCensus {
  at: string;
  rss_bytes: number;
  heap_size: number;
  object_count: number;
  /** The heap's blocks (capacity: what a burst left partly filled shows here, not in heap_size), and memory
   *  outside the heap that cells own (extra) or array buffers hold: where RSS beyond live objects sits. */
  heap_capacity: number;
  extra_memory: number;
  array_buffers: number;
  /** Object counts by type (JSC's names: "Object", "Function", "Promise", …). */
  types: Record<string, number>;
}

export function takeHeapCensus(): HeapCensus {
  Bun.gc(true);
  const s = heapStats();
  const m = process.memoryUsage();
  return {
    at: new Date().toISOString(),
    rss_bytes: m.rss,
    heap_size: s.heapSize,
    object_count: s.objectCount,
    heap_capacity: s.heapCapacity,
    extra_memory: s.extraMemorySize,
    array_buffers: m.arrayBuffers,
    types: s.objectTypeCounts,
  };
}

/** Installs the SIGUSR2 handler when `file` is set; returns whether it did. */
export function installHeapCensus(file: string | undefined): boolean {
  if (!file || process.platform === "win32") return false;
  process.on("SIGUSR2", () => {
    const tmp = `${file}.tmp-${process.pid}`;
    writeFileSync(tmp, JSON.stringify(takeHeapCensus()));
    renameSync(tmp, file);
  });
  return true;
}
