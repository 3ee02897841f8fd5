// What a token endpoint may answer, and what becomes of absurd numbers in it: a lifetime too long to
// write as a date is read as ten years; one that is not a number, or 0, is an unusable response.
import { describe, expect, it } from 'vitest';
import { createClient, ResponseError } from '../../src/api/index.js';
import { startFaultServer, useServers } from '../helpers/fault-server.js';

const { closeLater } = useServers();

async function tokenWith(expiresIn: string) {
  const server = await startFaultServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' }).end(`{"access_token":"at_0a1b2c3d","token_type":"Bearer","expires_in":${expiresIn}}`);
  });
  closeLater(server);
  return createClient({ baseUrl: server.url }).clientCredentials({ clientId: 'demo', clientSecret: 'secret' });
}

const TEN_YEARS = 10 * 365 * 86_400;

describe('expires_in', () => {
  it.each([
    ['3600', 3600],
    ['"3600"', 3600],
    ['3599.5', 3599.5],
    ['1e13, clamped to ten years', TEN_YEARS],
    ['1e999, clamped to ten years', TEN_YEARS],
    ['null', undefined],
  ])('%s', async (value, expected) => {
    const token = await tokenWith(value.split(',')[0]!);
    expect(token.expiresIn).toBe(expected);
    if (expected !== undefined) expect(new Date(Date.now() + token.expiresIn! * 1000).toISOString()).toMatch(/^\d{4}-/);
  });

  it.each([
    ['[1]', 'an expires_in that is not a number of seconds'],
    ['true', 'an expires_in that is not a number of seconds'],
    ['"soon"', 'an expires_in that is not a number of seconds'],
    ['{}', 'an expires_in that is not a number of seconds'],
    ['0', 'expires_in 0: the service issued a token that has already expired'],
    ['-60', 'expires_in -60: the service issued a token that has already expired'],
    ['1e-999', 'expires_in 1e-999: the service issued a token that has already expired'],
  ])('%s is refused as an unusable response', async (value, says) => {
    const error = await tokenWith(value).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ResponseError);
    expect(error).toMatchObject({ code: 'INVALID_RESPONSE', message: expect.stringMatching(new RegExp(`returned ${says.replace(/[()]/g, '\\$&')}$`)) });
  });
});
