// Package config loads and validates mrpvm's three configuration files:
// plugins.json (which plugins are enabled, default orders per loop stage,
// fallback chains, per-plugin options), engine.json (budgets, timeouts,
// frame depth, planner fallback order, the wrapper allowlist) and
// llm-role-settings.json (model roles and per-plugin overrides; see
// docs/configuration.md).
//
// Each file is read in layers, later layers overriding earlier ones key by
// key (objects merge, other values replace): the defaults embedded in the
// binary, then the user's file in UserDir(), then the workspace's
// <workspace>/.mrpvm/<name>.json. Every layer is validated on its own and
// every problem carries file:line:col and a stable code; a bad value is
// dropped (the lower layer's value stays), a file that is not JSON is
// skipped whole. Two settings are trusted only outside the workspace,
// because opening a cloned repository must never run or send anything the
// repository chose: a workspace pluginAllowlist can only narrow the user's
// allowlist, and a workspace cannot set an LLM baseURL or apiKeyEnv.
package config
