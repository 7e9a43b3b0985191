// The final stage of the project's Dockerfile, read as data with dockerfile-ast (the parser behind the VS Code
// Docker tooling), so the root-filesystem test runs what the image would hold and run rather than a copy of it
// that could drift.
import { readFileSync } from "node:fs";
import { DockerfileParser, JSONInstruction, type Copy, type Env, type Instruction } from "dockerfile-ast";

export interface FinalStage {
  base: string;
  /** COPY --from=<stage> lines: source in the build stage → destination in the image, with --chown. */
  copies: { from: string; src: string; dest: string; chown?: string }[];
  env: Record<string, string>;
  user: string;
  workdir: string;
  volumes: string[];
  healthcheck: string[];
  entrypoint: string[];
  cmd: string[];
}

const execForm = (i: Instruction): string[] => (i instanceof JSONInstruction ? i.getJSONStrings().map((a) => a.getJSONValue()) : []);

export function readFinalStage(path: string): FinalStage {
  const all = DockerfileParser.parse(readFileSync(path, "utf8")).getInstructions();
  const lastFrom = all.map((i) => i.getKeyword() === "FROM").lastIndexOf(true);
  const stage: FinalStage = { base: all[lastFrom]!.getArguments()[0]!.getValue(), copies: [], env: {}, user: "root", workdir: "/", volumes: [], healthcheck: [], entrypoint: [], cmd: [] };
  for (const i of all.slice(lastFrom + 1)) {
    switch (i.getKeyword()) {
      case "COPY": {
        const copy = i as Copy;
        const flag = (name: string) => copy.getFlags().find((f) => f.getName() === name)?.getValue() ?? undefined;
        const [src, dest] = copy.getArguments().map((a) => a.getValue());
        stage.copies.push({ from: flag("from") ?? "", src: src!, dest: dest!, chown: flag("chown") });
        break;
      }
      case "ENV":
        for (const p of (i as Env).getProperties()) stage.env[p.getName()] = p.getValue() ?? "";
        break;
      case "USER":
        stage.user = i.getArgumentsContent() ?? "";
        break;
      case "WORKDIR":
        stage.workdir = i.getArgumentsContent() ?? "";
        break;
      case "VOLUME":
        stage.volumes = execForm(i);
        break;
      case "HEALTHCHECK": {
        // HEALTHCHECK [flags] CMD ["exec", "form"]: the exec form after CMD.
        const text = i.getArgumentsContent() ?? "";
        stage.healthcheck = JSON.parse(text.slice(text.indexOf("CMD") + 3));
        break;
      }
      case "ENTRYPOINT":
        stage.entrypoint = execForm(i);
        break;
      case "CMD":
        stage.cmd = execForm(i);
        break;
    }
  }
  return stage;
}
