// The token endpoint read by OAuth libraries nobody here wrote: openid-client 6 (its
// clientCredentialsGrant) and oauth4webapi 3, the library under it, against the sandbox on port 0
// over http. Both read any WWW-Authenticate challenge on a token response as a demand for another
// scheme and throw WWWAuthenticateChallengeError before reading the body, so the sandbox sends a
// challenge only to a client that used HTTP Basic (RFC 6749 §5.2), and the body's invalid_client is
// then on the error's response. docs/sandbox.md says what each surfaces.
import * as oauth from 'oauth4webapi';
import * as client from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO } from '../../src/sandbox/index.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

let server: TestSandbox;
beforeAll(async () => {
  server = await startTestSandbox();
});
afterAll(async () => {
  await server.close();
});

const tokenEndpoint = () => `${server.url}/v1/auth/token`;

/** What a library's error says, as a program would read it. */
async function surfaced(error: unknown) {
  if (error instanceof oauth.ResponseBodyError) {
    return { kind: 'ResponseBodyError', status: error.status, error: error.error, description: error.error_description };
  }
  if (error instanceof oauth.WWWAuthenticateChallengeError) {
    const body = await error.response.json() as { error?: string; error_description?: string };
    return { kind: 'WWWAuthenticateChallengeError', status: error.status, schemes: error.cause.map((challenge) => challenge.scheme), error: body.error, description: body.error_description };
  }
  throw error;
}

const methods = [
  { method: 'client_secret_post', openid: client.ClientSecretPost, oauth4: oauth.ClientSecretPost },
  { method: 'client_secret_basic', openid: client.ClientSecretBasic, oauth4: oauth.ClientSecretBasic },
] as const;

/** For a wrong secret: the JSON body alone after the body method; the Basic challenge, the body on the error's response, after Basic. */
const WRONG_SECRET = {
  client_secret_post: { kind: 'ResponseBodyError', status: 401, error: 'invalid_client', description: 'invalid client credentials' },
  client_secret_basic: { kind: 'WWWAuthenticateChallengeError', status: 401, schemes: ['basic'], error: 'invalid_client', description: 'invalid client credentials' },
};

describe.each(methods)('openid-client 6, clientCredentialsGrant with $method', ({ method, openid }) => {
  const configuration = (clientId: string, secret: string) => {
    const config = new client.Configuration({ issuer: server.url, token_endpoint: tokenEndpoint() }, clientId, undefined, openid(secret));
    // openid-client refuses http unless told so, per configuration (marked deprecated only to stand out).
    client.allowInsecureRequests(config);
    return config;
  };

  it('gets a token with the right secret, the scope asked for granted', async () => {
    const token = await client.clientCredentialsGrant(configuration(DEMO.clientId, DEMO.clientSecret), { scope: 'market.read' });
    expect(token).toMatchObject({ token_type: 'bearer', expires_in: 3600, scope: 'market.read' });
    expect(token.access_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it.each([
    ['a wrong secret', DEMO.clientId, 'wrong-secret'],
    ['an unknown client', 'ghost', DEMO.clientSecret],
  ])('surfaces invalid_client for %s', async (_name, clientId, secret) => {
    const error = await client.clientCredentialsGrant(configuration(clientId, secret)).catch((caught: unknown) => caught);
    expect(await surfaced(error)).toEqual(WRONG_SECRET[method]);
  });
});

describe.each(methods)('oauth4webapi 3, a client credentials grant with $method', ({ method, oauth4 }) => {
  const grant = async (clientId: string, secret: string) => {
    const as = { issuer: server.url, token_endpoint: tokenEndpoint() };
    const response = await oauth.clientCredentialsGrantRequest(as, { client_id: clientId }, oauth4(secret), new URLSearchParams({ scope: 'market.read' }), {
      [oauth.allowInsecureRequests]: true,
    });
    return oauth.processClientCredentialsResponse(as, { client_id: clientId }, response);
  };

  it('gets a token with the right secret', async () => {
    expect(await grant(DEMO.clientId, DEMO.clientSecret)).toMatchObject({ token_type: 'bearer', expires_in: 3600, scope: 'market.read' });
  });

  it('surfaces invalid_client for a wrong secret', async () => {
    const error = await grant(DEMO.clientId, 'wrong-secret').catch((caught: unknown) => caught);
    expect(await surfaced(error)).toEqual(WRONG_SECRET[method]);
  });
});
