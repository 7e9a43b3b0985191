// `bun run bench`: every benchmark in turn. Figures go to docs/PERFORMANCE.md by hand, with the machine.
for (const file of ["pow.ts", "detector.ts", "metrics.ts"]) {
  console.log(`\n## ${file}`);
  const proc = Bun.spawn(["bun", new URL(`./${file}`, import.meta.url).pathname], { stdout: "inherit", stderr: "inherit" });
  if ((await proc.exited) !== 0) process.exit(1);
}
