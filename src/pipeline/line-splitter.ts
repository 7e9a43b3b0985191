// Moved to core/ (core's wire format; core/ imports nothing from pipeline/, issue 17).
export { LineSplitter } from "../core/line-splitter";
