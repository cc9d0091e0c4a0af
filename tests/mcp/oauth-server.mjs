// A local OAuth 2.1 authorization server for the MCP authorization tests, built on the official
// MCP TypeScript SDK's authorization-server router (its authorize and token handlers check the
// client, the redirect URI, `code_challenge_method=S256` and the PKCE verifier themselves). Only
// the provider (codes and tokens in memory) and the metadata flags the tests turn are ours. It
// listens on 127.0.0.1 port 0; its issuer is http://127.0.0.1:<port>/.
import { randomUUID } from "node:crypto";
import express from "express";
import { mcpAuthRouter, createOAuthMetadata } from "@modelcontextprotocol/sdk/server/auth/router.js";
import { InvalidGrantError } from "@modelcontextprotocol/sdk/server/auth/errors.js";

/** The Client ID Metadata Document the tests' client offers, and where its browser comes back. */
export const CLIENT_METADATA_URL = "https://app.example.test/oauth/client.json";
export const REDIRECT_URI = "https://abcdefghijklmnop.chromiumapp.org/";

/**
 * `{ issuer, metadata, log, close, set }`. `options` (changeable later through `set`):
 * `s256` (listed in code_challenge_methods_supported, default true), `iss` ("correct", "wrong"
 * or "missing" in the redirect; default "correct"), `issSupported` (advertised, default true),
 * `cimd` (client_id_metadata_document_supported, default true), `preRegistered` (a client id
 * known without a metadata document), `authorizationEndpoint` (overrides the advertised one),
 * `onToken(token, { resource, scopes })` (an issued access token).
 */
export async function startAuthServer(options = {}) {
  const opts = { s256: true, iss: "correct", issSupported: true, cimd: true, ...options };
  const log = { authorize: [], token: [] };
  const codes = new Map();
  const app = express();
  const listener = await new Promise((resolve) => {
    const l = app.listen(0, "127.0.0.1", () => resolve(l));
  });
  const issuer = `http://127.0.0.1:${listener.address().port}/`;
  const client = (id) => ({ client_id: id, redirect_uris: [REDIRECT_URI], token_endpoint_auth_method: "none" });
  const provider = {
    clientsStore: {
      async getClient(id) {
        if (id === CLIENT_METADATA_URL && opts.cimd) return client(id);
        if (opts.preRegistered && id === opts.preRegistered) return client(id);
        return undefined;
      },
    },
    async authorize(c, params, res) {
      log.authorize.push({ clientId: c.client_id, ...params, resource: params.resource?.href });
      const code = `code-${randomUUID()}`;
      codes.set(code, { clientId: c.client_id, ...params });
      const to = new URL(params.redirectUri);
      to.searchParams.set("code", code);
      if (params.state !== undefined) to.searchParams.set("state", params.state);
      if (opts.iss === "correct") to.searchParams.set("iss", issuer);
      if (opts.iss === "wrong") to.searchParams.set("iss", "https://attacker.example.test/");
      res.redirect(302, to.href);
    },
    async challengeForAuthorizationCode(_c, code) {
      const c = codes.get(code);
      if (!c) throw new InvalidGrantError("unknown code");
      return c.codeChallenge;
    },
    async exchangeAuthorizationCode(c, code, _verifier, redirectUri, resource) {
      const grant = codes.get(code);
      codes.delete(code); // one use
      log.token.push({ clientId: c.client_id, redirectUri, resource: resource?.href });
      if (!grant || grant.clientId !== c.client_id || grant.redirectUri !== redirectUri) throw new InvalidGrantError("code mismatch");
      if (grant.resource?.href !== resource?.href) throw new InvalidGrantError("resource mismatch");
      const token = `tok-SECRET-${randomUUID()}`;
      opts.onToken?.(token, { resource: resource?.href, scopes: grant.scopes });
      return { access_token: token, token_type: "Bearer", expires_in: 3600, refresh_token: `refresh-SECRET-${randomUUID()}`, scope: grant.scopes.join(" ") };
    },
    async exchangeRefreshToken() {
      throw new InvalidGrantError("not in these tests");
    },
    async verifyAccessToken() {
      throw new InvalidGrantError("the resource server verifies tokens");
    },
  };
  const router = { provider, issuerUrl: new URL(issuer), authorizationOptions: { rateLimit: false }, tokenOptions: { rateLimit: false } };
  const metadata = () => {
    const m = createOAuthMetadata(router);
    m.code_challenge_methods_supported = opts.s256 ? ["S256"] : ["plain"];
    m.authorization_response_iss_parameter_supported = opts.issSupported;
    m.client_id_metadata_document_supported = opts.cimd;
    if (opts.authorizationEndpoint) m.authorization_endpoint = opts.authorizationEndpoint;
    return m;
  };
  // The metadata with this test's flags, served ahead of the SDK router's own copy.
  app.get("/.well-known/oauth-authorization-server", (_req, res) => res.json(metadata()));
  app.use(mcpAuthRouter(router));
  return {
    issuer, log,
    get metadata() { return metadata(); },
    set: (o) => Object.assign(opts, o),
    close: () => new Promise((resolve) => { listener.closeAllConnections?.(); listener.close(() => resolve()); }),
  };
}

/** The user's browser at the authorization URL: the redirect back, as `launchWebAuthFlow` resolves it. */
export async function browse(url) {
  const r = await fetch(url, { redirect: "manual" });
  const to = r.headers.get("location");
  if (r.status !== 302 || !to) throw new Error(`the authorization server answered ${r.status}: ${await r.text()}`);
  return to;
}
