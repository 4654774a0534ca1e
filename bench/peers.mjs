// Equivalent policies for peer engines, so that one allowed call can be measured side by side.
//
// The toolgate policy: `allow: [read_file]` plus N deny rules, rule k denying calls whose `path` equals
// `secrets/k.txt`. The measured call reads `src/index.ts`, so every deny rule is evaluated and none matches,
// and the decision is allow.
//
//   casbin: request (sub, act, path); policy lines `p, agent, read_file, *, allow` and
//     `p, agent, read_file, secrets/k.txt, deny`; effect "allow unless some deny"; matcher
//     `r.sub == p.sub && r.act == p.act && (p.path == "*" || r.path == p.path)`. Same statements, same outcome.
//   Cedar: `permit(principal, action == Action::"read_file", resource);` plus
//     `forbid(principal, action == Action::"read_file", resource) when { context.path == "secrets/k.txt" };`
//     for each k. Cedar's forbid-overrides-permit is toolgate's strictest-wins for allow/deny.
import { newEnforcer, newModelFromString, StringAdapter } from "casbin";

/** toolgate YAML for the measured tool with `rules` deny rules. */
export function toolgatePolicyYaml(rules) {
  const lines = ["version: 1", "allow: [read_file]"];
  if (rules > 0) lines.push("rules:");
  for (let k = 0; k < rules; k++) {
    lines.push(
      `  - id: deny-secret-${k}`,
      "    tools: [read_file]",
      "    decision: deny",
      `    when: { path: { equals: "secrets/${k}.txt" } }`,
      `    reason: secret ${k} is never read`,
    );
  }
  return `${lines.join("\n")}\n`;
}

/** A casbin enforcer for the same policy. */
export async function casbinEnforcer(rules) {
  const model = newModelFromString(`
[request_definition]
r = sub, act, path

[policy_definition]
p = sub, act, path, eft

[policy_effect]
e = some(where (p.eft == allow)) && !some(where (p.eft == deny))

[matchers]
m = r.sub == p.sub && r.act == p.act && (p.path == "*" || r.path == p.path)
`);
  const lines = ["p, agent, read_file, *, allow"];
  for (let k = 0; k < rules; k++) lines.push(`p, agent, read_file, secrets/${k}.txt, deny`);
  const enforcer = await newEnforcer(model, new StringAdapter(lines.join("\n")));
  return (path) => enforcer.enforceSync("agent", "read_file", path);
}

/** A Cedar authorizer (cedar-wasm, policy set parsed once) for the same policy. */
export async function cedarAuthorizer(rules) {
  const cedar = await import("@cedar-policy/cedar-wasm/nodejs");
  const policies = ['permit(principal, action == Action::"read_file", resource);'];
  for (let k = 0; k < rules; k++) {
    policies.push(
      `forbid(principal, action == Action::"read_file", resource) when { context.path == "secrets/${k}.txt" };`,
    );
  }
  const id = `bench-${rules}`;
  const parsed = cedar.preparsePolicySet(id, { staticPolicies: policies.join("\n") });
  if (parsed.type !== "success")
    throw new Error(`cedar could not parse the policy: ${JSON.stringify(parsed)}`);
  return (path) => {
    const answer = cedar.statefulIsAuthorized({
      principal: { type: "User", id: "agent" },
      action: { type: "Action", id: "read_file" },
      resource: { type: "Workspace", id: "main" },
      context: { path },
      preparsedPolicySetId: id,
      entities: [],
    });
    if (answer.type !== "success") throw new Error(`cedar failed: ${JSON.stringify(answer)}`);
    return answer.response.decision === "allow";
  };
}
