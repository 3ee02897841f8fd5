// The Model Context Protocol SDK and zod, which its tool schemas are written in: the only module of
// mkt that imports them. scripts/build.js builds it apart, as dist/cli/mcp-sdk.cjs (about 1 MB,
// more than the rest of the CLI), which main.cjs requires only when `mkt mcp` runs: no other
// command reads or parses it (docs/benchmarks.md).
export { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
export type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
export type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
export {
  ClientNotificationSchema, ClientRequestSchema, JSONRPCErrorResponseSchema, JSONRPCNotificationSchema, JSONRPCRequestSchema, JSONRPCResultResponseSchema,
} from '@modelcontextprotocol/sdk/types.js';
export type { CallToolResult, JSONRPCMessage, RequestId, ServerNotification, ServerRequest, ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
export { z } from 'zod';
