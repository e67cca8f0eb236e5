/** ACP's JSON-RPC error code for "authentication required": the agent wants the person to sign in first. */
export const AUTH_REQUIRED_CODE = -32000
