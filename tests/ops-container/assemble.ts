// The root filesystem the Dockerfile's final stage produces, assembled without a registry: the binary, the
// libraries `ldd` names (what the distroless base provides for it), /etc/passwd and /etc/group with the nonroot
// user, /tmp, and /data owned by that user. Used by the chroot test (rootfs.test.ts) and the podman image test.
import { chmodSync, chownSync, copyFileSync, mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { FinalStage } from "./dockerfile";

function libraries(binary: string): string[] {
  const out = Bun.spawnSync(["ldd", binary]).stdout.toString();
  return [...out.matchAll(/(\/\S+)\s+\(0x/g)].map((m) => m[1]!);
}

/** Fills `rootfs` (an existing, empty directory) as the image would hold it. */
export function assembleRootfs(rootfs: string, stage: FinalStage, binary: string): { uid: number; gid: number } {
  const [uid, gid] = stage.user.split(":").map(Number) as [number, number];
  const place = (src: string, dest = src) => {
    const target = join(rootfs, dest);
    mkdirSync(dirname(target), { recursive: true });
    copyFileSync(src, target);
  };
  chmodSync(rootfs, 0o755);
  for (const c of stage.copies) {
    if (c.src.endsWith("/dist/svc-gateway")) {
      place(binary, c.dest);
      chmodSync(join(rootfs, c.dest), 0o755);
    } else {
      // The build stage's empty, owned state directory.
      mkdirSync(join(rootfs, c.dest), { recursive: true, mode: 0o700 });
      if (c.chown) chownSync(join(rootfs, c.dest), ...(c.chown.split(":").map(Number) as [number, number]));
    }
  }
  for (const lib of libraries(binary)) place(lib);
  mkdirSync(join(rootfs, "etc"), { recursive: true });
  writeFileSync(join(rootfs, "etc/passwd"), `root:x:0:0:root:/root:/sbin/nologin\nnonroot:x:${uid}:${gid}:nonroot:/home/nonroot:/sbin/nologin\n`);
  writeFileSync(join(rootfs, "etc/group"), `root:x:0:\nnonroot:x:${gid}:\n`);
  for (const d of ["tmp", "proc", "dev"]) mkdirSync(join(rootfs, d), { recursive: true });
  chmodSync(join(rootfs, "tmp"), 0o1777);
  return { uid, gid };
}

/**
 * A Containerfile for that root filesystem: `FROM scratch` and one COPY stand in for the distroless base and
 * the build stage; every other line of the Dockerfile's final stage (ENV, USER, WORKDIR, VOLUME, EXPOSE,
 * HEALTHCHECK, ENTRYPOINT, CMD) is taken verbatim, so the image runs what the published Dockerfile declares.
 */
export function localContainerfile(dockerfileText: string): string {
  const lines = dockerfileText.split("\n");
  const lastFrom = lines.map((l) => /^FROM\s/i.test(l)).lastIndexOf(true);
  const rest: string[] = [];
  let inCopy = false;
  for (const line of lines.slice(lastFrom + 1)) {
    // COPY lines (with their continuations) are the build stage's; the rootfs COPY replaces them.
    if (/^COPY\s/i.test(line) || inCopy) {
      inCopy = line.trimEnd().endsWith("\\");
      continue;
    }
    rest.push(line);
  }
  return ["FROM scratch", "COPY rootfs/ /", ...rest].join("\n");
}
