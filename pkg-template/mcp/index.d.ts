/**
 * Tools from MCP servers, HTTP endpoints, A2A agents, skills and builtins: a second entry with its
 * own small wasm, whose tools are ordinary tools for `createToolkit`.
 * @module toolnexus-wasm/mcp
 */
import type { AcceptUndefined, NeedsApproval, Request, Tool } from "../index.js";

/**
 * The class of every error this entry throws or rejects with, with the same stable `code` as the
 * default entry's: it is the very class `toolnexus-wasm` exports (one module in the package), so
 * `instanceof` holds whichever entry the error came from. Options are `bad_input`, network, HTTP
 * and protocol failures `transport`, a deadline or an abort `aborted`, a failing token callback
 * `host_callback`, and a failed load, or a call that needs the module before it (browser entry), `bad_state`.
 */
export { ToolnexusError } from "../index.js";

/** An MCP server entry as data: what `mcpTools` takes, and (with `tools`) what it gives back as `source`. */
export interface McpServerEntry {
  /** Names the server; its tools are called `<server>_<tool>` (sanitised). */
  server: string;
  /** The Streamable HTTP endpoint. */
  url: string;
  /** Sent on every request; `${NAME}` in a value is filled from `env`. */
  headers?: { [name: string]: string };
  /** Per request, in ms (rounded; 1 ≤ n ≤ 2**31 - 1, else `bad_input`); default 30000. */
  timeoutMs?: number;
  /** The largest reply read, in bytes; default 4 MiB (a longer one is an error). */
  maxBytes?: number;
  /** A listing kept from an earlier `source`: the tools are rebuilt from it without connecting. */
  tools?: { name: string; description?: string; inputSchema?: { [key: string]: unknown } }[];
  /**
   * The protocol revision the server was found to speak ("2026-07-28", stateless; or the one
   * `initialize` negotiated, e.g. "2025-11-25"): with it the server is not probed again.
   */
  protocol?: string;
  /**
   * The host's OAuth client. With it a server's demand for authorization suspends with a ready
   * authorization URL (PKCE S256, `state`, RFC 8707 `resource`); without it the host runs the
   * whole flow from the discovered facts, as before. Public data: it is part of `source`.
   */
  oauth?: McpOAuthClient;
}

/** `oauth` of an MCP server entry. `clientId` or `clientMetadataUrl` (or both) is required. */
export interface McpOAuthClient {
  /** Where the browser comes back: https, or http on a loopback host (`chrome.identity.getRedirectURL()`). */
  redirectUri: string;
  /** A pre-registered client id: offered first (for `issuer` only, when that is given). */
  clientId?: string;
  /** The https URL of this client's Client ID Metadata Document, offered as `client_id` where the authorization server supports them. */
  clientMetadataUrl?: string;
  /** The authorization server `clientId` was registered with. */
  issuer?: string;
}

/**
 * `data` of a suspension of `kind: "authorization"`. With `oauth` configured and everything in
 * place, the request's `url` is the authorization URL to open (`launchWebAuthFlow`) and the fields
 * from `clientId` on are set; otherwise `url` is absent and `problem` says why. Without `oauth`,
 * `url` is the authorization server (or the metadata) as before. No token and no PKCE verifier
 * here: the verifier waits in the request's id and reaches the host in the `grant`.
 */
export interface McpAuthorizationData {
  server: string;
  serverUrl: string;
  /** Where the protected-resource metadata was read (or first looked for). */
  resourceMetadata: string;
  authorizationServer?: string;
  /** RFC 8707: the resource the token is for. */
  resource?: string;
  /** The challenge's scope, or (with a ready URL) the scope requested. */
  scope?: string;
  scopesSupported?: string[];
  issuer?: string;
  authorizationEndpoint?: string;
  tokenEndpoint?: string;
  clientIdMetadataDocumentSupported?: boolean;
  clientId?: string;
  /** `clientId` is the Client ID Metadata Document's URL. */
  clientIdMetadataDocument?: boolean;
  redirectUri?: string;
  state?: string;
  codeChallengeMethod?: "S256";
  problem?: {
    code: "no_resource_metadata" | "no_authorization_server" | "no_authorization_server_metadata" | "pkce_unsupported" | "no_client_id" | "client_id_issuer_mismatch" | "no_crypto";
    message: string;
  };
}

/**
 * What the host needs for the token request of a checked authorization response (`token`'s
 * `grant`, `authorizationGrant`): pass it to `exchangeCode`.
 */
export interface McpAuthorizationGrant {
  tokenEndpoint: string;
  code: string;
  codeVerifier: string;
  redirectUri: string;
  clientId: string;
  resource: string;
  issuer: string;
}

/** A token endpoint's answer (RFC 6749 section 5.1): the host keeps it. */
export interface McpTokenResponse {
  access_token: string;
  token_type: string;
  expires_in?: number;
  refresh_token?: string;
  scope?: string;
  [key: string]: unknown;
}

/** The request of a suspension of `kind: "input"`: a server's questions, as it sent them. */
export interface McpInputData {
  server: string;
  /** Keyed by the server; each `{ method: "elicitation/create", params: { message, mode: "form", requestedSchema } | { message, mode: "url", url } }`. */
  inputRequests: { [key: string]: { method: string; params?: { [key: string]: unknown } } };
}

/** The answer's `data` to a suspension of `kind: "input"`: one response per key, bare. */
export interface McpInputAnswerData {
  inputResponses: { [key: string]: { action: "accept" | "decline" | "cancel"; content?: { [key: string]: unknown } } };
}

export interface McpOptions extends McpServerEntry {
  /** Values for `${NAME}` in `headers` (never part of `source`). */
  env?: { [name: string]: string };
  /** Replaces the global fetch. */
  fetch?: (input: string, init?: RequestInit) => Promise<Response>;
  /**
   * The bearer token for the server, asked for before each request (none: `undefined`). After a
   * call suspended with an `authorization` request and the host answered it, this is how the
   * host hands over the token it obtained; tokens never enter results, states or errors. An
   * answer `{ callbackUrl }` that passed the checks brings `grant` once: exchange it
   * (`exchangeCode`) and keep the tokens; the retried call then asks again without it.
   */
  token?: (who: { server: string; url: string; grant?: McpAuthorizationGrant }) => string | undefined | Promise<string | undefined>;
  /**
   * Every tool of the server asks before it runs (`kind: "approval"`); a function gets each
   * call's arguments and `{ name }` (`<server>_<tool>`). `true` is kept in `source`, so tools
   * rebuilt from it still ask; a function must be passed again beside it.
   */
  needsApproval?: NeedsApproval;
}

/** The tools of one MCP server, usable in `createToolkit`, with the entry as data and `close()`. */
export interface McpTools extends Array<Tool> {
  readonly source: McpServerEntry & { tools: NonNullable<McpServerEntry["tools"]>; needsApproval?: true };
  close(): Promise<void>;
}

/**
 * Finds the revision the server speaks (`server/discover`: 2026-07-28, stateless; else
 * initialize, or the legacy HTTP+SSE transport), lists every page of tools and returns them.
 * A server's questions during a call (2026-07-28 `input_required`) suspend the call with
 * `kind: "input"`, `data: McpInputData` (and `url` for a URL-mode question); answer
 * `{ id, ok: true, data: McpInputAnswerData }`, or `ok: false` to decline (the id carries the
 * server's request state: echo it unchanged). A server that demands
 * authorization while listing rejects with a ToolnexusError of `code: "transport"`, `status: 401`
 * and `authRequired: Request`; during a call it suspends the call instead (`kind: "authorization"`,
 * `data: McpAuthorizationData`). Answer `{ id, ok: true, data: { callbackUrl } }` with the URL
 * the browser came back to (its `state` and RFC 9207 `iss` are checked; a refusal ends the call
 * with an error result), or `{ id, ok: true }` when the host ran the flow itself.
 */
export declare function mcpTools(options: AcceptUndefined<McpOptions>): Promise<McpTools>;

/**
 * Checks the URL the browser came back to against an `authorization` request with a ready `url`
 * (a listing's `authRequired`, or a suspension handled outside the loop) and gives the grant.
 * A refused response throws a `bad_input` `ToolnexusError` whose `refusal` names the check
 * (`iss_mismatch`, `iss_missing`, `state_mismatch`, `state_missing`, `wrong_redirect`, ...).
 */
export declare function authorizationGrant(request: Request, callbackUrl: string): McpAuthorizationGrant;

/**
 * The token request for a grant (code, PKCE verifier, `resource`), from JS: resolves to the
 * token response for the host to keep. Errors: `bad_input` (the grant), `transport` (the
 * request or the endpoint's refusal, with `status`), `aborted` (`timeoutMs`, default 30000, or
 * `signal`).
 */
export declare function exchangeCode(
  grant: McpAuthorizationGrant,
  options?: { fetch?: (input: string, init?: RequestInit) => Promise<Response>; timeoutMs?: number; signal?: AbortSignal },
): Promise<McpTokenResponse>;

/** An HTTP endpoint as a tool, as data (`definition` gives it back without `env`). */
export interface HttpToolDefinition {
  name: string;
  url: string;
  description?: string;
  /** Default GET; GET sends every argument left after `{placeholder}`s as the query string. */
  method?: string;
  /** `${NAME}` in a value is filled from `env`. */
  headers?: { [name: string]: string };
  env?: { [name: string]: string };
  /** Arguments sent as the query string whatever the method. */
  query?: string[];
  /** How the other arguments are sent: JSON (default), a form, or the `body` argument as is. */
  body?: "json" | "form" | "raw";
  inputSchema?: { [key: string]: unknown };
  /** Default 30000 (`timeout`, the reference's name, is read too); rounded to whole ms. */
  timeoutMs?: number;
  /** The largest reply read, in bytes; default 4 MiB (a longer one is an error result). */
  maxBytes?: number;
  resultMode?: "text" | "json" | "status+text";
  fetch?: (input: string, init?: RequestInit) => Promise<Response>;
  /** The tool asks before it runs (`kind: "approval"`); `true` stays in `definition`. */
  needsApproval?: NeedsApproval;
}

/** `httpTool(definition)`: a tool for `createToolkit`; a non-2xx reply is the error result `HTTP <status>: <body>`. */
export declare function httpTool(definition: HttpToolDefinition): Tool & { readonly definition: Omit<HttpToolDefinition, "env" | "fetch" | "needsApproval"> & { needsApproval?: true } };

/**
 * The builtins that work over fetch, opt-in: `webfetch` (body read capped at `maxBytes`, default
 * 512 KiB), `question` (suspends with `kind: "question"`; the answer's `data` is the result) and
 * `todowrite`. `names` defaults to all three; any other builtin name is refused (`bad_input`).
 */
export declare function builtinTools(
  names?: ("webfetch" | "question" | "todowrite")[],
  /** `allowPrivate`: webfetch may fetch loopback, private and link-local addresses (refused by default; only http(s) ever). */
  options?: { fetch?: (input: string, init?: RequestInit) => Promise<Response>; maxBytes?: number; allowPrivate?: boolean },
): Tool[];

/** A skill as data; `content` is read as `body` too. */
export interface SkillDefinition {
  name: string;
  description?: string;
  body: string;
  /** Names listed when the skill is loaded (a sample of at most `sampleLimit`, default 10). */
  resources?: string[];
  /** Default `skill://<name>/`. */
  base?: string;
}

/**
 * One `skill` tool over skills given as data; `prompt` is the catalog for the system prompt.
 * `filter`: any `true` keeps only those names, otherwise `false` drops them. `sampleLimit`: 0
 * means 10, -1 lists no resources.
 */
export declare function skillTool(
  skills: SkillDefinition[],
  options?: { filter?: { [name: string]: boolean }; sampleLimit?: number },
): Tool & { readonly prompt: string };

/**
 * A remote A2A agent's skills as tools (`<agent>_<skill>`, one `task` argument): a call sends the
 * task with `SendMessage` and polls `GetTask` every `pollEvery` ms (default 1000) until the task
 * ends or `timeoutMs` (default 300000) passes. `card` is the Agent Card's URL.
 */
export declare function a2aTools(options: {
  card: string;
  headers?: { [name: string]: string };
  env?: { [name: string]: string };
  timeoutMs?: number;
  pollEvery?: number;
  /** The largest reply read, in bytes; default 4 MiB. */
  maxBytes?: number;
  fetch?: (input: string, init?: RequestInit) => Promise<Response>;
}): Promise<Tool[]>;

/**
 * Loads the MCP wasm module; idempotent, and optional: `mcpTools` and `a2aTools` load it, and
 * `httpTool`, `builtinTools` and `skillTool` made before it are declarations a toolkit makes when
 * a run first needs them (`skillTool(...).prompt` and `authorizationGrant` need the module:
 * `await init()` first, in a handler).
 */
export declare function init(input?: unknown): Promise<void>;
export declare function initSync(module: { module: unknown }): unknown;
export type { Request };
