import { type Reply, type RequestOptions, request } from './http.ts';

// A customer on the API: a review link asked for with a key, then the review page (its cookie
// and form token) and its form, as a browser fills it in.

/** POST /api/v1/requests/send with `body`: the reply, and the token of the review link it made. */
export async function requestReviewLink(
  apiUrl: string,
  key: string,
  body: Record<string, unknown>,
): Promise<{ sent: Reply; token: string }> {
  const sent = await request(apiUrl, '/api/v1/requests/send', {
    method: 'POST',
    headers: { 'x-api-key': key, 'content-type': 'application/json', origin: apiUrl },
    body: JSON.stringify(body),
  });
  const link = sent.json?.data?.reviewLink;
  return { sent, token: typeof link === 'string' ? (new URL(link).pathname.split('/')[2] ?? '') : '' };
}

/** Opens /r/<token> and posts its form with `fields` (rating, comment): 303 when the review is stored. */
export async function submitReviewForm(
  apiUrl: string,
  token: string,
  fields: { rating: string; comment: string },
  agent?: RequestOptions['agent'],
): Promise<Reply> {
  const through = agent === undefined ? {} : { agent };
  const page = await request(apiUrl, `/r/${token}`, through);
  const cookie = String(page.headers['set-cookie']?.[0]?.split(';')[0]);
  const formToken = /name="form_token" value="([^"]+)"/.exec(page.text)?.[1] ?? '';
  return request(apiUrl, `/r/${token}`, {
    method: 'POST',
    headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ ...fields, form_token: formToken }).toString(),
    ...through,
  });
}
