import { alertExcerpt } from '@review-desk/shared/alerts';
import { describe, expect, it } from 'vitest';
import { renderAlertEmail } from './email.ts';

describe('the alert email', () => {
  const email = renderAlertEmail({
    rating: 1,
    author: 'Eve <script>\r\nBcc: x@example.com',
    excerpt: alertExcerpt(`<img src=x onerror=alert(1)> "quoted" & more ${'x'.repeat(400)}`),
    locationName: 'Harbour & Co',
    link: 'https://desk.example/l/main/reviews?review=r1&x="y"',
  });

  it('carries rating, author, the first 300 characters and the link', () => {
    expect(email.subject).toBe('New 1★ review at Harbour & Co');
    expect(email.text).toContain('Rating: ★☆☆☆☆ (1 of 5)');
    expect(email.text).toContain('Author: Eve <script> Bcc: x@example.com');
    expect(email.text).toContain('https://desk.example/l/main/reviews?review=r1');
    const excerpt = email.text.split('\n').find((line) => line.startsWith('<img')) ?? '';
    expect(Array.from(excerpt)).toHaveLength(301);
    expect(excerpt.endsWith('…')).toBe(true);
  });

  it('escapes every customer character in the HTML part', () => {
    expect(email.html).not.toMatch(/<img|<script/);
    expect(email.html).toContain('&lt;img src=x onerror=alert(1)&gt; &quot;quoted&quot; &amp; more');
    expect(email.html).toContain('Eve &lt;script&gt;');
    expect(email.html).toContain('href="https://desk.example/l/main/reviews?review=r1&amp;x=&quot;y&quot;"');
  });

  it('keeps line breaks out of the subject and author (no header injection)', () => {
    const odd = renderAlertEmail({
      rating: 2,
      author: null,
      excerpt: null,
      locationName: 'A\r\nBcc: evil@example.com',
      link: 'https://desk.example/',
    });
    expect(odd.subject).not.toMatch(/[\r\n]/);
    expect(odd.text).toContain('Author: Anonymous');
    expect(odd.text).toContain('(no text)');
  });

  it('an excerpt is empty for blank text and whole code points when cut', () => {
    expect(alertExcerpt('   ')).toBeNull();
    expect(alertExcerpt(null)).toBeNull();
    const emoji = alertExcerpt('😀'.repeat(301)) ?? '';
    expect(Array.from(emoji)).toHaveLength(301);
    expect(emoji.startsWith('😀')).toBe(true);
  });
});
