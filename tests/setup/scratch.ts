// After the whole run (a preload's top-level afterAll runs once, after every file): the temporary directories
// the helpers made go (tests/helpers/scratch.ts).
import { afterAll } from "bun:test";
import { removeScratchDirs } from "../helpers/scratch";

afterAll(removeScratchDirs);
