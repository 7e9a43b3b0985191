// The stores' timestamps (chat history, captures): several a request, most of them in a millisecond already
// formatted, so the last one is kept. The same text as `new Date(ms).toISOString()`, which still throws on NaN
// (NaN never equals the kept instant).
let keptMs = NaN;
let keptText = "";

export function isoAt(ms: number): string {
  if (ms !== keptMs) {
    keptText = new Date(ms).toISOString();
    keptMs = ms;
  }
  return keptText;
}
