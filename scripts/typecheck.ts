// `npm run typecheck`: the two generators are independent (wrangler types writes worker-configuration.d.ts, React
// Router's typegen writes .react-router/types) and spend most of their time starting up, so they run side by side
// (issue 33: about half the typecheck on a busy machine); then `tsc -b` over both projects.
import { spawn } from "node:child_process";
import { join } from "node:path";

const bin = (name: string) => join("node_modules", ".bin", name);

function run(command: string, args: string[], quiet = false): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(bin(command), args, { stdio: ["ignore", quiet ? "ignore" : "inherit", "inherit"] });
    child.on("error", reject);
    child.on("exit", (code) =>
      code === 0 ? resolve() : reject(new Error(`${command} ${args.join(" ")} exited with ${code}`)),
    );
  });
}

try {
  await Promise.all([
    run("wrangler", ["types", "--env-file", ".dev.vars.example", "--strict-vars=false"], true),
    run("react-router", ["typegen"]),
  ]);
  await run("tsc", ["-b"]);
} catch (error) {
  console.error((error as Error).message);
  process.exit(1);
}
